import type { Ledger } from "../store/ledger.js";
import type { Message } from "../session/messages.js";
import type { SessionEvent } from "../session/events.js";
import { estimateCost, loadPriceTable, type PriceTable } from "./llm/cost.js";
import { LLMError, type LLMClient, type LLMResponse, type ToolSpec } from "./llm/types.js";

let prices: PriceTable | undefined;
/** PATCHGATE_PRICES is read once per process; a malformed value throws on the first call, loudly. */
function priceTable(): PriceTable {
  prices ??= loadPriceTable();
  return prices;
}

export function costOf(r: LLMResponse): number | null {
  return estimateCost(r.model, r.usage, priceTable());
}

/** `called`: the successful call's `llm_called` event, for the caller to record with the answer (one commit). */
export type StepResult = { ok: true; response: LLMResponse; called: SessionEvent } | { ok: false; reason: "llm_empty" | "llm_error"; message: string };

/**
 * One model call. Failures and empty answers are recorded here; an empty answer (no text, no tool
 * call) is retried once; a second empty answer or a fatal LLMError is returned for the loop to end
 * the session with. A good answer's record is returned, not appended: the loop stores it together
 * with the assistant message, so a step costs one durable commit fewer.
 */
export async function callModel(ledger: Ledger, llm: LLMClient, messages: Message[], tools: ToolSpec[], signal?: AbortSignal): Promise<StepResult> {
  for (let attempt = 0; attempt < 2; attempt++) {
    let response: LLMResponse;
    try {
      // After an answer cut at the output limit, ask for the raised limit (where one is configured).
      response = await llm.complete({ messages, tools, signal, raiseMaxTokens: ledger.state.outputCuts > 0 });
    } catch (err) {
      if (signal?.aborted) throw err;
      const e = LLMError.isInstance(err) ? err : null;
      await ledger.append({
        type: "llm_called",
        model: llm.model,
        usage: { promptTokens: 0, completionTokens: 0, estimated: false },
        latencyMs: 0,
        retries: e?.retries ?? 0,
        costUsd: 0,
        ok: false,
        error: (err as Error).message,
      });
      return { ok: false, reason: "llm_error", message: (err as Error).message };
    }
    const empty = response.toolCalls.length === 0 && (response.content ?? "").trim() === "";
    const called: SessionEvent = {
      type: "llm_called",
      model: response.model,
      usage: response.usage,
      latencyMs: response.latencyMs,
      retries: response.retries,
      costUsd: costOf(response),
      ok: !empty,
      error: empty ? "empty response" : undefined,
      ...(response.finishReason !== undefined && { finishReason: response.finishReason }),
    };
    if (!empty) return { ok: true, response, called };
    await ledger.append(called);
  }
  return { ok: false, reason: "llm_empty", message: "the model returned an empty response twice" };
}

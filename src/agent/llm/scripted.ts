import type { ToolCall } from "../../session/messages.js";
import type { TokenUsage } from "../../session/types.js";
import { LLMError, type LLMClient, type LLMRequest, type LLMResponse } from "./types.js";

/** One scripted model turn. `arguments` may be an object (serialised) or raw text (to script bad JSON). */
export type ScriptTurn =
  | {
      content?: string | null;
      toolCalls?: { name: string; arguments: unknown; id?: string }[];
      usage?: Partial<TokenUsage>;
      /** `length`: the answer was cut at the output token limit (its last call's JSON may be cut too). */
      finishReason?: string;
    }
  | { error: { status: number | null; message?: string; code?: string } };

/** A turn may be computed from the request, so a script can react to tool results. */
export type ScriptStep = ScriptTurn | ((req: LLMRequest) => ScriptTurn);

/**
 * A real fake model: replays a script of responses in order. Used by tests, the demo and the eval
 * runner's CI cases. Running past the end is an `llm_error`, so a script that is too short is visible.
 */
export class ScriptedLLM implements LLMClient {
  private next = 0;
  private callIds = 0;
  readonly requests: LLMRequest[] = [];

  constructor(
    private readonly steps: ScriptStep[],
    readonly model = "scripted",
  ) {}

  get remaining(): number {
    return this.steps.length - this.next;
  }

  async complete(req: LLMRequest): Promise<LLMResponse> {
    if (req.signal?.aborted) throw req.signal.reason ?? new Error("aborted");
    this.requests.push(req);
    const step = this.steps[this.next++];
    if (step === undefined) throw new LLMError("scripted LLM ran out of turns", null, false, 0);
    const turn = typeof step === "function" ? step(req) : step;
    if ("error" in turn) {
      throw new LLMError(turn.error.message ?? `scripted error ${turn.error.status}`, turn.error.status, false, 0, turn.error.code ?? null);
    }
    const toolCalls: ToolCall[] = (turn.toolCalls ?? []).map((c) => ({
      id: c.id ?? `call_${++this.callIds}`,
      name: c.name,
      arguments: typeof c.arguments === "string" ? c.arguments : JSON.stringify(c.arguments),
    }));
    const usage: TokenUsage = {
      promptTokens: turn.usage?.promptTokens ?? 100,
      completionTokens: turn.usage?.completionTokens ?? 20,
      estimated: turn.usage?.estimated ?? false,
    };
    return {
      content: turn.content ?? null,
      toolCalls,
      usage,
      model: this.model,
      latencyMs: 0,
      retries: 0,
      ...(turn.finishReason && { finishReason: turn.finishReason }),
    };
  }
}

import type { ToolCall } from "../../session/messages.js";
import type { WireReasoning } from "./wire-messages.js";
import { HandledError } from "../../errors/index.js";

/** A provider's answer, read from a whole completion or assembled from stream chunks. */
export interface CompletionParts {
  content: string | null;
  toolCalls: ToolCall[];
  finishReason: string | null;
  usage: { promptTokens: number; completionTokens: number } | null;
  model: string | null;
  reasoning: WireReasoning | null;
  /** A stream is complete when it said [DONE] or gave a finish_reason; a whole completion always is. */
  complete: boolean;
}

/** A provider that answered 200 with `{"error": …}` (OpenRouter, LiteLLM, vLLM behind proxies do). */
export class ProviderErrorBody extends HandledError {
  readonly kind = "provider_error_body";
  constructor(readonly body: unknown) {
    const e = (body as { error?: { message?: unknown } }).error;
    super(`the provider answered 200 with an error: ${typeof e?.message === "string" ? e.message : JSON.stringify(e).slice(0, 300)}`);
  }
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | null => (v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Json) : null);
const str = (v: unknown): string | null => (typeof v === "string" ? v : null);

function usageOf(v: unknown): CompletionParts["usage"] {
  const u = obj(v);
  if (!u || typeof u.prompt_tokens !== "number") return null;
  return { promptTokens: u.prompt_tokens, completionTokens: typeof u.completion_tokens === "number" ? u.completion_tokens : 0 };
}

function reasoningOf(m: Json, acc: WireReasoning = {}): WireReasoning {
  const out = { ...acc };
  const content = str(m.reasoning_content);
  if (content !== null) out.reasoning_content = (out.reasoning_content ?? "") + content;
  const text = str(m.reasoning);
  if (text !== null) out.reasoning = (out.reasoning ?? "") + text;
  if (Array.isArray(m.reasoning_details)) out.reasoning_details = [...(out.reasoning_details ?? []), ...m.reasoning_details];
  return out;
}

const nonEmpty = (r: WireReasoning): WireReasoning | null => (Object.keys(r).length > 0 ? r : null);

/**
 * Streamed reasoning_details arrive as fragments of one block (same type and index); the provider
 * wants the blocks back, so fragments are joined: text fields concatenated, the latest other field wins.
 */
function joinDetails(r: WireReasoning): WireReasoning {
  if (!r.reasoning_details) return r;
  const out: Json[] = [];
  for (const d of r.reasoning_details) {
    const cur = obj(d);
    const prev = out.at(-1);
    if (!cur || !prev || prev.type !== cur.type || prev.index === undefined || prev.index !== cur.index) {
      out.push(cur ? { ...cur } : (d as Json));
      continue;
    }
    for (const [k, v] of Object.entries(cur)) {
      if ((k === "text" || k === "summary" || k === "data") && typeof v === "string" && typeof prev[k] === "string") prev[k] = (prev[k] as string) + v;
      else if (v !== null && v !== undefined) prev[k] = v;
    }
  }
  return { ...r, reasoning_details: out };
}

/** A whole (non-streamed) completion. */
export function readCompletion(body: unknown): CompletionParts {
  const b = obj(body);
  if (!b || (b.error !== undefined && b.error !== null)) throw new ProviderErrorBody(body);
  const choice = Array.isArray(b.choices) ? obj(b.choices[0]) : null;
  if (!choice) throw new ProviderErrorBody({ error: { message: "the completion has no choices" } });
  const m = obj(choice.message) ?? {};
  const calls = Array.isArray(m.tool_calls) ? m.tool_calls.map(obj).filter((c): c is Json => c !== null) : [];
  const toolCalls = calls.map((c) => {
    const fn = obj(c.function) ?? {};
    return { id: str(c.id) ?? "", name: str(fn.name) ?? "", arguments: typeof fn.arguments === "string" ? fn.arguments : JSON.stringify(fn.arguments ?? {}) };
  });
  return {
    content: str(m.content),
    toolCalls,
    finishReason: str(choice.finish_reason),
    usage: usageOf(b.usage),
    model: str(b.model),
    reasoning: nonEmpty(reasoningOf(m)),
    complete: true,
  };
}

/**
 * Assembles stream chunks. Tool-call fragments are keyed by `index`; a fragment with a new id at a
 * used index is a new call (some servers send every call whole at index 0). Chunks without choices
 * (usage at the end, Azure's content-filter results first) only contribute what they carry.
 */
export class StreamAssembler {
  private content = "";
  private sawContent = false;
  private calls: { id: string; name: string; arguments: string }[] = [];
  private byIndex = new Map<number, number>();
  private finishReason: string | null = null;
  private usage: CompletionParts["usage"] = null;
  private model: string | null = null;
  private reasoning: WireReasoning = {};
  private done = false;

  /** One `data:` payload. */
  push(data: string): void {
    if (data.trim() === "[DONE]") {
      this.done = true;
      return;
    }
    const chunk = obj(JSON.parse(data));
    if (!chunk || (chunk.error !== undefined && chunk.error !== null)) throw new ProviderErrorBody(chunk);
    this.model ??= str(chunk.model);
    this.usage = usageOf(chunk.usage) ?? this.usage;
    for (const c of Array.isArray(chunk.choices) ? chunk.choices : []) {
      const choice = obj(c);
      if (!choice) continue;
      this.finishReason = str(choice.finish_reason) ?? this.finishReason;
      const delta = obj(choice.delta) ?? {};
      const text = str(delta.content);
      if (text !== null) {
        this.content += text;
        this.sawContent = true;
      }
      this.reasoning = reasoningOf(delta, this.reasoning);
      for (const t of Array.isArray(delta.tool_calls) ? delta.tool_calls : []) this.pushCall(obj(t) ?? {});
    }
  }

  private pushCall(t: Json): void {
    const fn = obj(t.function) ?? {};
    const id = str(t.id) ?? "";
    const index = typeof t.index === "number" ? t.index : this.calls.length;
    let at = this.byIndex.get(index);
    if (at !== undefined && id !== "" && this.calls[at].id !== "" && this.calls[at].id !== id) at = undefined;
    if (at === undefined) {
      this.calls.push({ id, name: "", arguments: "" });
      at = this.calls.length - 1;
      this.byIndex.set(index, at);
    }
    const call = this.calls[at];
    if (call.id === "") call.id = id;
    const name = str(fn.name);
    if (name !== null && call.name === "") call.name = name;
    if (typeof fn.arguments === "string") call.arguments += fn.arguments;
    else if (fn.arguments !== undefined && fn.arguments !== null) call.arguments += JSON.stringify(fn.arguments);
  }

  result(): CompletionParts {
    return {
      content: this.sawContent && !(this.content === "" && this.calls.length > 0) ? this.content : null,
      toolCalls: this.calls.map((c) => ({ ...c })),
      finishReason: this.finishReason,
      usage: this.usage,
      model: this.model,
      reasoning: nonEmpty(joinDetails(this.reasoning)),
      complete: this.done || this.finishReason !== null,
    };
  }
}

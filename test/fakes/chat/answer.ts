import type { ProviderProfile } from "./providers.js";
import type { AnswerTurn } from "./turns.js";

/**
 * A scripted answer as a provider would send it: one completion body, or the chunks of a stream.
 * Pure: the server writes what these return.
 */

type Json = Record<string, unknown>;

export interface ShapedAnswer {
  message: Json;
  finishReason: string;
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
  /** OpenRouter: what the next requests must send back, keyed by the first call id. */
  details?: { firstCallId: string; json: string };
}

function reasoningFields(turn: AnswerTurn, p: ProviderProfile, hasCalls: boolean): Json {
  if (p.reasoning === "deepseek") return { reasoning_content: turn.reasoning ?? "Thinking about which tool to use." };
  if (p.reasoning === "openrouter" && (turn.reasoning !== undefined || hasCalls)) {
    const text = turn.reasoning ?? "Considering the next step.";
    return { reasoning: text, reasoning_details: [{ type: "reasoning.text", text, signature: "sig-fake", format: "anthropic-claude-v1", index: 0 }] };
  }
  return {};
}

export function shapeAnswer(turn: AnswerTurn, p: ProviderProfile, nextCall: () => number): ShapedAnswer {
  const calls = (turn.toolCalls ?? []).map((c, i) => ({
    id: c.id ?? p.callId(i, nextCall()),
    type: "function",
    function: { name: c.name, arguments: typeof c.arguments === "string" ? c.arguments : JSON.stringify(c.arguments) },
  }));
  const reasoning = reasoningFields(turn, p, calls.length > 0);
  const message: Json = { role: "assistant", content: turn.content ?? null, ...(calls.length > 0 && { tool_calls: calls }), ...reasoning };
  const prompt = turn.usage?.promptTokens ?? 100;
  const completion = turn.usage?.completionTokens ?? 20;
  const details = calls.length > 0 && reasoning.reasoning_details ? { firstCallId: calls[0].id, json: JSON.stringify(reasoning.reasoning_details) } : undefined;
  return {
    message,
    finishReason: turn.finishReason ?? (calls.length > 0 ? p.toolFinishReason : "stop"),
    usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
    details,
  };
}

function pieces(text: string, n: number): string[] {
  if (text === "") return [];
  const size = Math.max(1, Math.ceil(text.length / n));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** The `data:` payloads of a stream of this answer (without [DONE]); comments are the server's business. */
export function streamChunks(a: ShapedAnswer, p: ProviderProfile, model: string, id: string, includeUsage: boolean): Json[] {
  const chunk = (delta: Json, finish: string | null = null): Json => ({
    id,
    object: "chat.completion.chunk",
    created: 0,
    model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const out: Json[] = [];
  if (p.stream.filterChunkFirst)
    out.push({ id: "", object: "", created: 0, model: "", choices: [], prompt_filter_results: [{ prompt_index: 0, content_filter_results: {} }] });
  out.push(chunk({ role: "assistant", content: "" }));
  const m = a.message;
  if (typeof m.reasoning_content === "string") for (const r of pieces(m.reasoning_content, 2)) out.push(chunk({ reasoning_content: r }));
  if (Array.isArray(m.reasoning_details)) {
    const d = m.reasoning_details[0] as Json;
    for (const t of pieces(String(d.text), 2)) out.push(chunk({ reasoning: t, reasoning_details: [{ ...d, text: t }] }));
  }
  if (typeof m.content === "string") for (const t of pieces(m.content, 3)) out.push(chunk({ content: t }));
  for (const [index, c] of ((m.tool_calls as Json[] | undefined) ?? []).entries()) {
    const fn = c.function as { name: string; arguments: string };
    if (!p.stream.fragmentArguments) {
      out.push(chunk({ tool_calls: [{ index, id: c.id, type: "function", function: fn }] }));
      continue;
    }
    out.push(chunk({ tool_calls: [{ index, id: c.id, type: "function", function: { name: fn.name, arguments: "" } }] }));
    for (const arg of pieces(fn.arguments, 3)) out.push(chunk({ tool_calls: [{ index, function: { arguments: arg } }] }));
  }
  out.push(chunk({}, a.finishReason));
  if (includeUsage) out.push({ id, object: "chat.completion.chunk", created: 0, model, choices: [], usage: a.usage });
  return out;
}

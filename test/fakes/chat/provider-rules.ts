import type { WireViolation } from "./wire-contract.js";

/**
 * Rules some OpenAI-compatible servers add on top of OpenAI's, each from a provider Patchgate must
 * work with. Pure checks of the request's messages.
 */

type Json = Record<string, unknown>;

/**
 * Chat templates that enforce alternation (Llama-2, Mistral, Gemma under vLLM or TGI): one system
 * message, first; then user and assistant alternate, starting with the user. Tool results belong to
 * the assistant turn that called them and may be followed by the assistant or the user.
 */
export function alternationProblem(messages: Json[]): WireViolation | null {
  const fail = (i: number): WireViolation => ({
    rule: "alternation",
    message: "Conversation roles must alternate user/assistant/user/assistant/...",
    param: `messages[${i}]`,
  });
  let prev: string | null = null;
  for (const [i, m] of messages.entries()) {
    const role = m.role as string;
    if (role === "system" || role === "developer") {
      if (i !== 0) return { rule: "alternation", message: "System message must be at the beginning.", param: `messages[${i}]` };
      continue;
    }
    const calls = Array.isArray(m.tool_calls) && m.tool_calls.length > 0;
    const ok =
      role === "user"
        ? prev === null || prev === "assistant" || prev === "tool"
        : role === "assistant"
          ? prev === "user" || prev === "tool"
          : role === "tool"
            ? prev === "assistant+calls" || prev === "tool"
            : false;
    if (!ok) return fail(i);
    prev = role === "assistant" && calls ? "assistant+calls" : role;
  }
  return null;
}

/** vLLM parses the arguments in the history (json.loads) before templating; bad JSON is a 500 from then on. */
export function historyArgumentsProblem(messages: Json[]): WireViolation | null {
  for (const [i, m] of messages.entries()) {
    for (const c of Array.isArray(m.tool_calls) ? (m.tool_calls as Json[]) : []) {
      const raw = (c.function as Json | undefined)?.arguments;
      try {
        JSON.parse(String(raw));
      } catch (e) {
        return { rule: "history_arguments_json", message: `${(e as Error).message} (messages[${i}] tool call arguments)`, param: `messages[${i}]` };
      }
    }
  }
  return null;
}

/** DeepSeek in thinking mode: every assistant message with tool calls carries its reasoning_content back. */
export function deepseekReasoningProblem(messages: Json[]): WireViolation | null {
  for (const [i, m] of messages.entries()) {
    if (m.role === "assistant" && Array.isArray(m.tool_calls) && typeof m.reasoning_content !== "string") {
      return {
        rule: "reasoning_content_missing",
        message: `Missing \`reasoning_content\` field in the assistant message at message index ${i}. The reasoning_content in the thinking mode must be passed back to the API.`,
        param: null,
      };
    }
  }
  return null;
}

/**
 * OpenRouter in front of a model with thinking blocks (Claude): an assistant tool-call turn must send
 * back the reasoning_details it received, unchanged, or the upstream refuses the request.
 */
export function reasoningDetailsProblem(messages: Json[], sent: ReadonlyMap<string, string>): WireViolation | null {
  for (const [i, m] of messages.entries()) {
    if (m.role !== "assistant" || !Array.isArray(m.tool_calls)) continue;
    const first = (m.tool_calls as Json[])[0]?.id as string;
    const expected = sent.get(first);
    if (expected !== undefined && JSON.stringify(m.reasoning_details ?? null) !== expected) {
      return {
        rule: "reasoning_details_missing",
        message: `messages.${i}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`tool_use\`. When thinking is enabled, an assistant message with tool use must start with its thinking block (send reasoning_details back unchanged).`,
        param: null,
      };
    }
  }
  return null;
}

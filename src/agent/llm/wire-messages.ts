import type { Message, ToolCall } from "../../session/messages.js";

/** Reasoning fields as the provider sent them, to be sent back on the assistant message that carried them. */
export interface WireReasoning {
  /** DeepSeek (and vLLM reasoning parsers): required back on tool-call turns in thinking mode. */
  reasoning_content?: string;
  /** OpenRouter: text, summary and encrypted blocks, sent back verbatim to keep the reasoning going. */
  reasoning_details?: unknown[];
  /** OpenRouter's plain-text twin of reasoning_details. */
  reasoning?: string;
}

export type OpenReasoning = (sealed: string) => WireReasoning | null;

/** Chat-completions wire messages, as plain JSON (the SDK's types do not know reasoning fields). */
export type WireMessage = Record<string, unknown> & { role: string };

const NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Arguments as history may carry them. A model's malformed JSON stays as it was in the ledger, but
 * is sent back as `{}`: providers that parse the history (vLLM runs json.loads on it) fail on every
 * later request otherwise. The call's tool result already told the model what was wrong.
 */
function wireArguments(raw: string): string {
  try {
    const value: unknown = JSON.parse(raw);
    return value !== null && typeof value === "object" && !Array.isArray(value) ? raw : "{}";
  } catch {
    return "{}";
  }
}

/** A function name the model invented may break the provider's name pattern; history must not. */
function wireName(name: string): string {
  if (NAME.test(name)) return name;
  const cleaned = name.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 64);
  return cleaned === "" ? "unknown_tool" : cleaned;
}

function wireCall(c: ToolCall) {
  return { id: c.id, type: "function", function: { name: wireName(c.name), arguments: wireArguments(c.arguments) } };
}

export function toWireMessage(m: Message, openReasoning: OpenReasoning): WireMessage {
  switch (m.role) {
    case "assistant": {
      const reasoning = m.reasoning !== undefined ? openReasoning(m.reasoning) : null;
      const base =
        m.toolCalls.length > 0
          ? { role: "assistant", content: m.content, tool_calls: m.toolCalls.map(wireCall) }
          : { role: "assistant", content: m.content ?? "" };
      return { ...base, ...reasoning };
    }
    case "tool":
      return { role: "tool", tool_call_id: m.toolCallId, content: m.content };
    default:
      return { role: m.role, content: m.content };
  }
}

import type { LLMRequest, ToolSpec } from "./types.js";
import { strictSchema } from "./strict-schema.js";
import { toWireMessage, type OpenReasoning, type WireMessage } from "./wire-messages.js";

/** How the request body is written for one provider; see llm-config.ts for where each value comes from. */
export interface WireSettings {
  model: string;
  stream: boolean;
  /** Output cap; `maxTokensRaised` replaces it on requests that ask for the raise. */
  maxTokens?: number;
  maxTokensRaised?: number;
  /** OpenAI and Azure want `max_completion_tokens` (reasoning models refuse `max_tokens`); others `max_tokens`. */
  maxTokensField: "max_tokens" | "max_completion_tokens";
  reasoningEffort?: string;
  parallelToolCalls?: boolean;
  strictTools: boolean;
  openReasoning: OpenReasoning;
}

export type ChatRequestBody = Record<string, unknown> & { model: string; messages: WireMessage[] };

function wireTool(t: ToolSpec, strict: boolean) {
  const fn = strict
    ? { name: t.name, description: t.description, parameters: strictSchema(t.parameters), strict: true }
    : { name: t.name, description: t.description, parameters: t.parameters };
  return { type: "function", function: fn };
}

/** The chat-completions request body: only fields that are set are sent (providers refuse unknown ones). */
export function chatRequestBody(req: LLMRequest, w: WireSettings): ChatRequestBody {
  const withTools = req.tools.length > 0;
  const maxTokens = req.raiseMaxTokens && w.maxTokensRaised !== undefined ? w.maxTokensRaised : w.maxTokens;
  return {
    model: w.model,
    messages: req.messages.map((m) => toWireMessage(m, w.openReasoning)),
    ...(withTools && { tools: req.tools.map((t) => wireTool(t, w.strictTools)), tool_choice: "auto" }),
    ...(withTools && w.parallelToolCalls !== undefined && { parallel_tool_calls: w.parallelToolCalls }),
    ...(maxTokens !== undefined && { [w.maxTokensField]: maxTokens }),
    ...(w.reasoningEffort !== undefined && { reasoning_effort: w.reasoningEffort }),
    ...(w.stream && { stream: true, stream_options: { include_usage: true } }),
  };
}

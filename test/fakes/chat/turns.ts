import type { LLMRequest } from "../../../src/agent/llm/types.js";
import type { Message } from "../../../src/session/messages.js";
import { readResultText } from "../../../src/session/result-read.js";
import type { ToolResult } from "../../../src/session/types.js";

/**
 * One scripted answer of the fake provider. Besides what a model says, a turn can be a provider's
 * failure: an HTTP error, a 200 whose body is an error, a stream that stalls after some chunks, a
 * request that is never answered (the client is killed meanwhile).
 */
export type FakeTurn =
  | {
      content?: string | null;
      /** `arguments` as an object (serialised) or raw text (to send bad or cut-off JSON). */
      toolCalls?: { name: string; arguments: unknown; id?: string }[];
      usage?: { promptTokens?: number; completionTokens?: number };
      /** Reasoning text the provider attaches (DeepSeek's reasoning_content, OpenRouter's details). */
      reasoning?: string;
      /** Default: tool_calls / stop as the profile says; `length` = cut at the output limit. */
      finishReason?: string;
      /** Streaming only: send this many chunks, then nothing more until the client gives up. */
      stallAfterChunks?: number;
      /** Streaming only: send this many chunks, then drop the connection (no [DONE], no finish). */
      cutAfterChunks?: number;
      /** Answer with one JSON body even when a stream was asked for (servers that ignore `stream`). */
      ignoreStream?: boolean;
    }
  /** An HTTP error with OpenAI's body; `code` as OpenAI sends it (`insufficient_quota`…). */
  | { error: { status: number | null; message?: string; code?: string } }
  | { errorBody: { message: string; code?: number | string } }
  | { hold: true };

/** A turn, or a function of the request that computes it (a script that reacts to tool results). */
export type FakeStep = FakeTurn | ((req: LLMRequest) => FakeTurn);

export type AnswerTurn = Extract<FakeTurn, { toolCalls?: unknown }>;

export const isAnswer = (t: FakeTurn): t is AnswerTurn => !("error" in t) && !("errorBody" in t) && !("hold" in t);

/** The wire messages back as ours, so step functions see what an in-process model would. */
export function fromWire(messages: unknown[]): Message[] {
  return messages.map((m) => {
    const msg = m as {
      role: string;
      content: string | null;
      tool_call_id?: string;
      tool_calls?: { id: string; function: { name: string; arguments: string } }[];
    };
    if (msg.role === "assistant") {
      return {
        role: "assistant",
        content: msg.content,
        toolCalls: (msg.tool_calls ?? []).map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments })),
      };
    }
    if (msg.role === "tool") return { role: "tool", toolCallId: msg.tool_call_id ?? "", content: msg.content ?? "" };
    return { role: msg.role as "system" | "user", content: msg.content ?? "" };
  });
}

/** A tool message's result, read back from the text the model was shown (without the runtime-context block). */
export function toolResultOf(m: Message): ToolResult {
  if (m.role !== "tool") throw new Error(`not a tool message: ${m.role}`);
  return readResultText(m.content);
}

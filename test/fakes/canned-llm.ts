import type { LLMClient, LLMRequest, LLMResponse } from "../../src/agent/llm/types.js";
import type { ToolCall } from "../../src/session/messages.js";
import { assertWireContract } from "./chat/in-process.js";

/** One canned answer: text content, a full partial response, an error to throw, or a function of the request. */
export type Canned = string | Error | Partial<LLMResponse> | ((req: LLMRequest) => string | Partial<LLMResponse>);

/**
 * A real LLMClient that answers from a list, in order, and records every request it received.
 * Running past the end throws, so a test that makes more calls than it expects fails loudly.
 */
export class CannedLLM implements LLMClient {
  readonly requests: LLMRequest[] = [];
  private next = 0;

  constructor(
    private readonly answers: Canned[],
    readonly model = "canned-model",
  ) {}

  async complete(req: LLMRequest): Promise<LLMResponse> {
    this.requests.push(req);
    assertWireContract(req);
    const answer = this.answers[this.next++];
    if (answer === undefined) throw new Error(`CannedLLM: no answer left for call ${this.next}`);
    if (answer instanceof Error) throw answer;
    const value = typeof answer === "function" ? answer(req) : answer;
    const partial: Partial<LLMResponse> = typeof value === "string" ? { content: value } : value;
    return {
      content: partial.content ?? null,
      toolCalls: partial.toolCalls ?? ([] as ToolCall[]),
      usage: partial.usage ?? { promptTokens: 50, completionTokens: 10, estimated: false },
      model: partial.model ?? this.model,
      latencyMs: partial.latencyMs ?? 1,
      retries: partial.retries ?? 0,
    };
  }
}

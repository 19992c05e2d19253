import type { Message, SealedReasoning, ToolCall } from "../../session/messages.js";
import type { TokenUsage } from "../../session/types.js";
import { FatalError } from "../../errors/index.js";

// The tools layer owns the shape; the client only carries it.
import type { ToolSpec } from "../../tools/tool-spec.js";
export type { ToolSpec };

export interface LLMRequest {
  messages: Message[];
  tools: ToolSpec[];
  signal?: AbortSignal;
  /** An earlier answer was cut at the output limit: use the raised limit, where one is configured. */
  raiseMaxTokens?: boolean;
}

export interface LLMResponse {
  content: string | null;
  toolCalls: ToolCall[];
  /** The provider's finish_reason; `length` means the output was cut at the token limit. */
  finishReason?: string | null;
  /** Provider reasoning, sealed by the client; only that client's vault can open it. */
  reasoning?: SealedReasoning;
  usage: TokenUsage;
  model: string;
  latencyMs: number;
  /** Transient failures retried before this answer. */
  retries: number;
}

export interface LLMClient {
  readonly model: string;
  complete(req: LLMRequest): Promise<LLMResponse>;
}

/** Fatal LLM failure after retries (or a non-retryable status). Ends the session as `llm_error`. */
export class LLMError extends FatalError {
  readonly kind = "llm_failed";
  constructor(
    message: string,
    readonly status: number | null,
    readonly retryable: boolean,
    readonly retries: number,
    /** The provider's error code (`insufficient_quota`…), when it sent one. */
    readonly code: string | null = null,
  ) {
    super(message);
  }
}

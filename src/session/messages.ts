/** Provider-neutral conversation messages. Tool-call arguments stay the raw JSON string the model sent. */
export interface ToolCall {
  /** Unique within the session and owned by the runtime; also the id sent back to the provider. */
  id: string;
  name: string;
  /** Raw JSON text exactly as the model produced it; parsed and validated by the loop, never trusted. */
  arguments: string;
  /** The provider's own id, kept only when it could not be used (missing, or already taken). */
  providerId?: string;
}

/**
 * Provider reasoning (DeepSeek's `reasoning_content`, OpenRouter's `reasoning_details`) sealed by the
 * LLM client: opaque ciphertext at rest, opened only to send it back to the provider that wrote it.
 */
export type SealedReasoning = string;

export type Message =
  | { role: "system"; content: string }
  | { role: "user"; content: string }
  | { role: "assistant"; content: string | null; toolCalls: ToolCall[]; reasoning?: SealedReasoning }
  | { role: "tool"; toolCallId: string; content: string };

/** Provider-neutral conversation messages. Tool-call arguments stay the raw JSON string the model sent. */
export interface ToolCall {
  id: string;
  name: string;
  /** Raw JSON text exactly as the model produced it; parsed and validated by the loop, never trusted. */
  arguments: string;
}

export type Message =
  | { role: "system"; content: string }
  | { role: "user"; content: string }
  | { role: "assistant"; content: string | null; toolCalls: ToolCall[] }
  | { role: "tool"; toolCallId: string; content: string };

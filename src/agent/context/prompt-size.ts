/**
 * How many tokens a prompt takes, estimated from UTF-8 bytes: what the compaction trigger and the
 * threshold arithmetic need, cheaply and without a tokenizer in the process. A real BPE tokenizer
 * (o200k) costs ~165 MB and a ~0.4 s event-loop block to build, and re-encoding the window on every
 * step was most of a step's runtime work. Billing never uses this: it uses the provider's usage.
 *
 * The ratio is chosen to err on the side of more tokens: o200k gives 3.6–5.3 bytes per token for
 * source code, JSON-escaped tool output, English and German prose (measured on this repository's
 * files), 2.5 for a lockfile and ~1.5 for base64 or hex; at 3 bytes per token the trigger fires a
 * little before the exact count would for everything but dense encodings, which the tools cap anyway.
 *
 * Each message is measured once: the count is kept with the message object (messages are immutable,
 * and the conversation keeps the same objects from step to step).
 */

import type { Message } from "../../session/messages.js";

const BYTES_PER_TOKEN = 3;

/** Framing per message and per tool call (role, separators), and the reply's priming, as in OpenAI's recipe. */
const PER_MESSAGE = 4;
const PER_TOOL_CALL = 3;
const REPLY_PRIMING = 3;

export function estimateTextTokens(text: string): number {
  return text.length === 0 ? 0 : Math.ceil(Buffer.byteLength(text, "utf8") / BYTES_PER_TOKEN);
}

const perMessage = new WeakMap<Message, number>();

export function estimateMessageTokens(m: Message): number {
  const known = perMessage.get(m);
  if (known !== undefined) return known;
  let n = PER_MESSAGE + estimateTextTokens(m.content ?? "");
  if (m.role === "assistant") for (const c of m.toolCalls) n += PER_TOOL_CALL + estimateTextTokens(c.name) + estimateTextTokens(c.arguments);
  perMessage.set(m, n);
  return n;
}

export function estimatePromptTokens(messages: readonly Message[]): number {
  let total = REPLY_PRIMING;
  for (const m of messages) total += estimateMessageTokens(m);
  return total;
}

/** Tool definitions as the provider receives them (name, description, JSON Schema). */
export function estimateToolsTokens(tools: readonly { name: string; description: string; parameters: unknown }[]): number {
  let total = tools.length > 0 ? 12 : 0;
  for (const t of tools) total += estimateTextTokens(t.name) + estimateTextTokens(t.description) + estimateTextTokens(JSON.stringify(t.parameters));
  return total;
}

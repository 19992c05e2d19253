/**
 * Capping tool output in the prompt. A 200 KB test log or file listing would crowd out the rest of
 * the context on every later step; the head (what the command was doing) and the tail (the error,
 * the totals) carry most of the information, so the middle goes.
 */

import { capText } from "../../safety/byte-limit.js";
import type { Message } from "../../session/messages.js";

/** Default cap for one older tool result in the prompt: history, which the model has already read. */
export const MAX_TOOL_OUTPUT_BYTES = 8 * 1024;

/**
 * The bound for the results the model has just asked for. The tools page their own output (a
 * read_file page is at most 32 KB, test output is cut to its head and tail per stream), so this
 * cuts only a result no tool bounded, and says so.
 */
export const FRESH_TOOL_OUTPUT_BYTES = 64 * 1024;
const FRESH_NOTE = "; the ledger keeps the whole result: ask for less at a time, e.g. a line range or a narrower path";

// Every step caps the same older results again; capping scans the whole text (well-formedness, UTF-8
// bytes), so each message's capped form is kept with it. Messages are immutable, so this is exact.
const capped = new WeakMap<Message, Map<string, Message>>();

/** A tool message with its content capped; other messages are returned as they are (same object). */
export function capToolMessage(m: Message, maxBytes: number, fresh = false): Message {
  if (m.role !== "tool") return m;
  const key = `${maxBytes}:${fresh}`;
  const forms = capped.get(m) ?? new Map<string, Message>();
  const known = forms.get(key);
  if (known) return known;
  const c = capText(m.content, maxBytes, fresh ? FRESH_NOTE : "");
  const out = c.truncated ? { ...m, content: c.text } : m;
  forms.set(key, out);
  capped.set(m, forms);
  return out;
}

/**
 * The shape every chat template accepts, not only OpenAI's: one system message, first; user and
 * assistant turns alternating (Llama-2, Mistral and Gemma templates raise on two user messages in a
 * row); each assistant message with tool calls followed directly by one result per call.
 * Pure: messages in, messages out; the conversation in the ledger is never changed.
 */

import type { Message } from "../../session/messages.js";

/**
 * Tool results directly after the message that made the calls, in call order. A message recorded
 * between a call and its result (a human's message while a batch waited) moves after the results.
 */
export function resultsAfterCalls(messages: readonly Message[]): Message[] {
  const resultOf = new Map<string, Message>();
  for (const m of messages) if (m.role === "tool") resultOf.set(m.toolCallId, m);
  const out: Message[] = [];
  for (const m of messages) {
    if (m.role === "tool") continue;
    out.push(m);
    if (m.role !== "assistant") continue;
    for (const c of m.toolCalls) {
      const r = resultOf.get(c.id);
      if (r) out.push(r);
    }
  }
  return out;
}

/**
 * Consecutive user messages become one (joined by a blank line), so user and assistant alternate.
 * So do two assistant turns in a row, the first without tool calls (the reducer allows no second
 * turn while calls are open): ledgers written before a text-only answer and its nudge became one
 * append hold such pairs (a crash in between), and strict providers refuse them with a 400 on every
 * later request. The later turn's calls and reasoning are kept: they belong to the merged turn.
 */
export function mergeRoleRuns(messages: readonly Message[]): Message[] {
  const out: Message[] = [];
  for (const m of messages) {
    const prev = out.at(-1);
    if (m.role === "user" && prev?.role === "user") out[out.length - 1] = { role: "user", content: `${prev.content}\n\n${m.content}` };
    else if (m.role === "assistant" && prev?.role === "assistant" && prev.toolCalls.length === 0)
      out[out.length - 1] = { ...m, content: joined(prev.content, m.content) };
    else out.push(m);
  }
  return out;
}

function joined(a: string | null, b: string | null): string | null {
  const parts = [a, b].filter((x): x is string => x !== null && x !== "");
  return parts.length > 0 ? parts.join("\n\n") : b;
}

/**
 * The runtime-context block rides at the end of the last user or tool message instead of being a
 * message of its own: a separate user message after a user turn breaks alternation, and a second
 * system message is refused by the same templates. `npm run bench -- prompt-cache` measured the
 * placements: at the end — this one, its own user message, a trailing system message — the shared
 * prefix is the same (85% of prompt tokens over a scripted session). Early in the prompt (system
 * prompt, task message) it is 90% while the block never changes, but 4–6% once it changes every
 * step (a session budget line), since every change invalidates everything after it.
 */
export function withRuntimeBlock(messages: readonly Message[], block: string): Message[] {
  const last = messages.at(-1);
  const head = messages.slice(0, -1);
  if (last?.role === "user") return [...head, { role: "user", content: `${last.content}\n\n${block}` }];
  if (last?.role === "tool") return [...head, { ...last, content: `${last.content}\n\n${block}` }];
  return [...messages, { role: "user", content: block }];
}

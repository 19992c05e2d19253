/**
 * Where compaction may cut the conversation. Messages before the cut are replaced by the memory
 * summary in the prompt; messages from the cut on are sent as they are.
 *
 * Two things must survive any cut:
 * - tool-call pairs: an assistant message with tool calls and the tool results answering it stay on
 *   the same side (a tool result without its call is rejected by the provider; a call without its
 *   result confuses the model);
 * - the task (message 0) and the latest user instruction. These are *pinned*: if the cut passes them
 *   they are still sent, before the kept messages (see `pinnedBefore`). Pinning instead of refusing
 *   to cut is what lets a long execute phase, which begins with the approval message, be compacted.
 */

import type { Message } from "../../session/messages.js";

/**
 * For each index i, whether cutting at i would separate a tool call from its result: true when some
 * assistant message before i has a call whose result is at or after i.
 */
export function unsafeCuts(conversation: readonly Message[]): boolean[] {
  const callAt = new Map<string, number>();
  const unsafe = new Array<boolean>(conversation.length + 1).fill(false);
  conversation.forEach((m, i) => {
    if (m.role === "assistant") for (const c of m.toolCalls) callAt.set(c.id, i);
    if (m.role !== "tool") return;
    const from = callAt.get(m.toolCallId);
    // Cuts strictly after the call and at or before the result are unsafe.
    if (from !== undefined) for (let j = from + 1; j <= i; j++) unsafe[j] = true;
  });
  return unsafe;
}

/** A cut at i is safe when it keeps every pair whole and does not start the kept part with an orphan result. */
export function isSafeCut(conversation: readonly Message[], i: number, unsafe = unsafeCuts(conversation)): boolean {
  if (i < 1 || i > conversation.length) return false;
  if (unsafe[i]) return false;
  // A tool message whose call is unknown (should not happen) must not lead the kept part either.
  return i === conversation.length || conversation[i].role !== "tool";
}

/**
 * The cut that keeps at least the last `keepRecent` messages (more when a pair straddles the
 * boundary), or null when no cut past the task message is possible. The caller compares the
 * result with the current cut: a cut that does not move forward is no compaction.
 */
export function chooseCut(conversation: readonly Message[], keepRecent: number): number | null {
  const unsafe = unsafeCuts(conversation);
  // Moving the cut earlier keeps more, which is always allowed; never move it later than the target.
  for (let i = conversation.length - Math.max(0, keepRecent); i >= 2; i--) {
    if (isSafeCut(conversation, i, unsafe)) return i;
  }
  return null;
}

/** Index of the latest user message after the task, or null. */
export function latestUserInstruction(conversation: readonly Message[]): number | null {
  for (let i = conversation.length - 1; i >= 1; i--) if (conversation[i].role === "user") return i;
  return null;
}

/** Indices before `cut` that are sent anyway, in order: the task, then the latest user instruction. */
export function pinnedBefore(conversation: readonly Message[], cut: number): number[] {
  if (cut <= 0 || conversation.length === 0) return [];
  const pinned = [0];
  const latest = latestUserInstruction(conversation);
  if (latest !== null && latest < cut) pinned.push(latest);
  return pinned;
}

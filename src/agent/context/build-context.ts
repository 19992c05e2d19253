/**
 * The messages sent to the model on each step:
 *   1. the system prompt, exactly as given (byte-stable: the provider's prompt cache keys on it);
 *   2. the conversation from the compaction cut on, with the task and the latest user instruction
 *      pinned when the cut has passed them, and oversized older tool outputs capped (the results of
 *      the last turn, which the model has not read yet, only by a safety bound that says so);
 *   3. the runtime-context block (mode, phase, plan, todos, memory summary) at the end of the last
 *      user or tool message.
 * The runtime block changes every step, so it goes last: everything before it is a prefix that only
 * grows between compactions, which is what provider prompt caches can reuse. The whole is shaped
 * for every chat template (message-shape.ts), and never built while a call has no result.
 * Pure: the same state and options give the same messages.
 */

import type { Message } from "../../session/messages.js";
import type { SessionState } from "../../session/state.js";
import { requireNoOpenCalls } from "../../session/open-calls.js";
import { mergeRoleRuns, resultsAfterCalls, withRuntimeBlock } from "./message-shape.js";
import { isSafeCut, pinnedBefore, unsafeCuts } from "./cut.js";
import { renderRuntimeContext } from "./runtime-context.js";
import { FRESH_TOOL_OUTPUT_BYTES, MAX_TOOL_OUTPUT_BYTES, capToolMessage } from "./truncate-output.js";

export interface BuildContextOptions {
  systemPrompt: string;
  /** Send at most this many messages after the cut (pinned ones not counted). Default: no limit. */
  maxRecentMessages?: number;
  /** Cap for one older tool result (before the model's last turn), in UTF-8 bytes. */
  maxToolOutputBytes?: number;
  /** The baseline test run is still going beside the loop: the runtime context says so. */
  baselineRunning?: boolean;
}

export interface ConversationWindow {
  messages: Message[];
  /** Messages after the cut left out by `maxRecentMessages`. */
  omitted: number;
}

/** The latest safe start at or before `start`: never begins inside a tool-call pair. */
function safeStart(conversation: readonly Message[], start: number): number {
  if (start <= 1) return start;
  const unsafe = unsafeCuts(conversation);
  let i = start;
  while (i > 1 && !isSafeCut(conversation, i, unsafe)) i -= 1;
  return i;
}

/** The conversation part of the prompt (step 2 above), shared with the compaction trigger. */
export function conversationWindow(state: SessionState, opts: Pick<BuildContextOptions, "maxRecentMessages" | "maxToolOutputBytes"> = {}): ConversationWindow {
  const conv = state.conversation;
  const cut = Math.min(state.memory?.cutIndex ?? 0, conv.length);
  // Message 0 (the task) is always sent as a pinned message, so the kept part starts at 1 or later.
  let start = conv.length === 0 ? 0 : Math.max(1, safeStart(conv, cut));
  const firstKept = start;
  if (opts.maxRecentMessages !== undefined && conv.length - start > opts.maxRecentMessages) {
    start = safeStart(conv, Math.max(start, conv.length - opts.maxRecentMessages));
  }
  const pinnedIdx = pinnedBefore(conv, start);
  // Left out = between the cut and the recent part, minus what is pinned and so still sent.
  const omitted = start - firstKept - pinnedIdx.filter((i) => i >= firstKept).length;
  const pinned = pinnedIdx.map((i) => conv[i]);
  const cap = opts.maxToolOutputBytes ?? MAX_TOOL_OUTPUT_BYTES;
  const kept = [...pinned, ...conv.slice(start)];
  // The results after the model's last turn are what it just asked for: the tools bound and page
  // them, so they are never cut mid-content here (beyond a safety bound that says so).
  const fresh = lastAssistant(kept);
  const messages = kept.map((m, i) => (i > fresh ? capToolMessage(m, FRESH_TOOL_OUTPUT_BYTES, true) : capToolMessage(m, cap)));
  return { messages, omitted };
}

function lastAssistant(messages: readonly Message[]): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]!.role === "assistant") return i;
  return -1;
}

export function buildContext(state: SessionState, opts: BuildContextOptions): Message[] {
  requireNoOpenCalls(state, "model request");
  const window = conversationWindow(state, opts);
  const shaped = mergeRoleRuns(resultsAfterCalls(window.messages));
  return [
    { role: "system", content: opts.systemPrompt },
    ...withRuntimeBlock(shaped, renderRuntimeContext(state, { omittedMessages: window.omitted, baselineRunning: opts.baselineRunning })),
  ];
}

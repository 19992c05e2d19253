/**
 * Compaction: when the conversation in the prompt grows past a threshold, the older part is replaced
 * by a memory summary. Threshold-triggered (not every step) so that the prompt prefix stays stable,
 * and cache-friendly, between compactions.
 *
 * `compact` never throws and never changes anything itself: it returns the event to append. On any
 * failure that event is `compaction_failed`, which the reducer records without touching the
 * conversation or the previous summary, so nothing is lost.
 */

import type { SessionEvent } from "../../session/events.js";
import type { SessionState } from "../../session/state.js";
import { TERMINAL_PHASES } from "../../session/types.js";
import type { LLMClient, LLMResponse } from "../llm/types.js";
import { conversationWindow } from "./build-context.js";
import { estimatePromptTokens, estimateTextTokens } from "./prompt-size.js";
import { chooseCut } from "./cut.js";
import { mergeSummaries, readSummary } from "./memory-summary.js";
import { renderRuntimeContext } from "./runtime-context.js";
import { parseSummaryReply, summaryRequest } from "./summary-request.js";

export { chooseCut } from "./cut.js";

/** Messages kept verbatim after a cut when the caller does not say. */
const DEFAULT_KEEP_RECENT = 12;

export interface CompactionThresholds {
  /** Tokens of the runtime block plus the conversation window, estimated from bytes (prompt-size.ts). */
  maxPromptTokens: number;
  /** Assistant turns in the window. */
  maxTurns: number;
  /** Used to check that a cut is possible at all; without one, compaction is pointless. */
  keepRecent?: number;
}

/** The cut a compaction would make now, or null when it would not move past the current one. */
function nextCut(state: SessionState, keepRecent: number): number | null {
  const cut = chooseCut(state.conversation, keepRecent);
  return cut !== null && cut > (state.memory?.cutIndex ?? 0) ? cut : null;
}

export function shouldCompact(state: SessionState, thresholds: CompactionThresholds): boolean {
  if (TERMINAL_PHASES.includes(state.phase)) return false;
  // Without a possible cut a trigger would only append a failure on every step.
  if (nextCut(state, thresholds.keepRecent ?? DEFAULT_KEEP_RECENT) === null) return false;
  const window = conversationWindow(state);
  const turns = window.messages.filter((m) => m.role === "assistant").length;
  if (turns > thresholds.maxTurns) return true;
  const tokens = estimateTextTokens(renderRuntimeContext(state)) + estimatePromptTokens(window.messages);
  return tokens > thresholds.maxPromptTokens;
}

export interface CompactOptions {
  keepRecent: number;
  signal?: AbortSignal;
  /** Sees the summariser's response (usage, latency) so the caller can account for its cost. */
  onResponse?: (response: LLMResponse) => void;
}

const failed = (error: string): SessionEvent => ({ type: "compaction_failed", error });

export async function compact(state: SessionState, llm: LLMClient, opts: CompactOptions): Promise<SessionEvent> {
  const previousCut = state.memory?.cutIndex ?? 0;
  const cut = nextCut(state, opts.keepRecent);
  if (cut === null) {
    return failed(`nothing to compact: no safe cut after message ${previousCut} keeps the last ${opts.keepRecent} messages`);
  }
  const previous = state.memory ? readSummary(state.memory.summary) : null;
  // Message 0 (the task) is pinned in every prompt; the summary covers what comes after it.
  const removed = state.conversation.slice(Math.max(1, previousCut), cut);
  let response: LLMResponse;
  try {
    response = await llm.complete(summaryRequest(state.task.title, previous, removed, opts.signal));
  } catch (e) {
    return failed(`summariser call failed: ${e instanceof Error ? e.message : String(e)}`);
  }
  try {
    opts.onResponse?.(response);
  } catch {
    // Accounting is the caller's business; its failure must not turn a good summary into a lost one.
  }
  if (response.toolCalls.length > 0) return failed("summariser answered with tool calls instead of JSON");
  const reply = parseSummaryReply(response.content);
  if (!reply.ok) return failed(reply.error);
  return { type: "context_compacted", cutIndex: cut, summary: mergeSummaries(previous, reply.summary) };
}

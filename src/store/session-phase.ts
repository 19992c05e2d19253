import type { SessionEvent, SessionEventType } from "../session/events.js";
import type { Phase } from "../session/types.js";

const keep = (p: Phase): Phase => p;
const to = (phase: Phase) => (): Phase => phase;
type Next = (prev: Phase, e: SessionEvent) => Phase;

/**
 * The phase each event leads to, for the `sessions.phase` column that `list()` reads. Folding every
 * stored event on every append would cost O(events) per write; the phase depends only on the previous
 * phase and the event (its type, and for session_reopened the phase it names), so this table is enough. It must agree with the reducer: the Record type
 * makes a new event type a compile error here, and test/store/session-phase.test.ts folds real event
 * sequences through both. The store trusts its caller (the Ledger) to have validated the events.
 */
const PHASE_AFTER: Record<SessionEventType, Next> = {
  session_created: to("queued"),
  instructions_loaded: keep,
  workspace_prepared: (p) => (p === "queued" ? "planning" : p),
  resumed: keep,
  llm_called: keep,
  assistant_message: keep,
  tool_started: keep,
  policy_decided: keep,
  tool_result: keep,
  file_read: keep,
  file_written: keep,
  todos_updated: keep,
  plan_updated: keep,
  plan_submitted: to("awaiting_plan_approval"),
  plan_approved: to("executing"),
  question_asked: to("awaiting_answer"),
  question_answered: to("planning"),
  plan_revision_requested: to("planning"),
  approval_requested: to("awaiting_write_approval"),
  approval_granted: to("executing"),
  approval_denied: to("executing"),
  writes_auto_approved: keep,
  approval_settled: keep,
  diff_updated: keep,
  test_run: keep,
  setup_run: keep,
  setup_retry_requested: keep,
  baseline_run: keep,
  block_reported: keep,
  changes_rolled_back: keep,
  command_changed: keep,
  user_message: keep,
  context_compacted: keep,
  compaction_failed: keep,
  finish_accepted: to("publishing"),
  published: to("done"),
  branch_claimed: keep,
  branch_pushed: keep,
  branch_rebased: (p) => (p === "publishing" ? "executing" : p),
  session_failed: to("failed"),
  session_cancelled: to("cancelled"),
  session_blocked: to("blocked"),
  toolchains_resolved: keep,
  limits_configured: keep,
  tool_versions: keep,
  mcp_server_connected: keep,
  mcp_server_failed: keep,
  mcp_tools_listed: keep,
  mcp_tool_dropped: keep,
  mcp_call: keep,
  // The reducer checked that the event names the phase the session continues in.
  session_reopened: (_p, e) => (e.type === "session_reopened" ? e.phase : _p),
};

export function phaseAfter(prev: Phase, events: readonly SessionEvent[]): Phase {
  return events.reduce((p, e) => PHASE_AFTER[e.type](p, e), prev);
}

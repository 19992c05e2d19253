import type { SessionEvent } from "../../session/events.js";

/**
 * Where each kind of event comes from, as a replay sees it:
 * - `run`: the runtime makes it while the session runs, so the replay makes it again (or not, and
 *   the comparison says so);
 * - `given back`: an answer from outside that the replay gives back where the recording had it (the
 *   model's answers, the humans' decisions at their parks, the flags the session was started with);
 * - `not followed`: something from outside that the replay has no way to give back (a human's
 *   follow-up message or cancel, a grant or budget decision, a reopen, a rebase onto a newer base).
 * A recording holding one of these cannot be replayed: its replay would report a divergence that is
 * only the missing input. The table names every kind, so a new one needs a decision here to compile.
 */
export type EventOrigin = "run" | "given back" | "not followed";

export const EVENT_ORIGIN: { readonly [T in SessionEvent["type"]]: EventOrigin } = {
  session_created: "run",
  workspace_prepared: "run",
  resumed: "run",
  toolchains_resolved: "run",
  instructions_loaded: "run",
  tool_versions: "run",
  limits_configured: "given back",
  writes_auto_approved: "given back",
  llm_called: "given back",
  assistant_message: "given back",
  context_compacted: "run",
  compaction_failed: "run",
  tool_started: "run",
  policy_decided: "run",
  tool_result: "run",
  file_read: "run",
  file_written: "run",
  file_deleted: "run",
  file_moved: "run",
  diff_updated: "run",
  todos_updated: "run",
  plan_submitted: "run",
  plan_updated: "run",
  plan_approved: "given back",
  plan_revision_requested: "given back",
  question_asked: "run",
  question_answered: "given back",
  approval_requested: "run",
  approval_granted: "given back",
  approval_denied: "given back",
  approval_settled: "run",
  integrity_requested: "run",
  integrity_checked: "run",
  integrity_approved: "given back",
  integrity_denied: "given back",
  setup_run: "run",
  baseline_run: "run",
  test_run: "run",
  changes_rolled_back: "run",
  command_changed: "run",
  mcp_server_connected: "run",
  mcp_server_failed: "run",
  mcp_tools_listed: "run",
  mcp_tool_dropped: "run",
  mcp_call: "run",
  block_reported: "run",
  grant_requested: "run",
  budget_parked: "run",
  finish_accepted: "run",
  session_failed: "run",
  session_blocked: "run",
  published: "run",
  receipt_recorded: "run",
  branch_claimed: "run",
  branch_push_intended: "run",
  branch_pushed: "run",
  user_message: "not followed",
  setup_retry_requested: "not followed",
  grant_approved: "not followed",
  grant_denied: "not followed",
  budget_raised: "not followed",
  session_cancelled: "not followed",
  session_reopened: "not followed",
  branch_rebased: "not followed",
};

/** The first recorded event the replay could not give back, or undefined when it can follow them all. */
export function firstNotFollowed<E extends { type: SessionEvent["type"] }>(events: readonly E[]): E | undefined {
  return events.find((e) => EVENT_ORIGIN[e.type] !== "given back" && EVENT_ORIGIN[e.type] !== "run");
}

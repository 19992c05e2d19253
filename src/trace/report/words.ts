import type { Approver, BlockedReason, FailureReason } from "../../session/types.js";
import { code, type Inline } from "./doc.js";
import type { CallView } from "./session-view.js";

/** Short phrases shared by every part of the report, so one fact always reads the same way. */

export const shortHash = (h: string): string => h.slice(0, 12);

/** `1 file`, `2 files`. */
/**
 * A session from GitHub pushes its result; one from the terminal or the eval runner only commits on a
 * branch of its own clone. The words must not claim a push (or GitHub's annotations) that never happened.
 */
export const pushesToGitHub = (v: { state: { task: { source: { kind: string } } } }): boolean => v.state.task.source.kind === "github";

export const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? "" : "s"}`;
export const shortSha = (h: string): string => h.slice(0, 7);

/** `2025-01-02 03:04:05 UTC`, or the stored text when it is not a date. */
export function when(at: string): string {
  const d = new Date(at);
  return Number.isNaN(d.getTime()) ? at : `${d.toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

/** `03:04:05`: within a step the date is in its heading. */
export function clock(at: string): string {
  const d = new Date(at);
  return Number.isNaN(d.getTime()) ? at : d.toISOString().slice(11, 19);
}

export function duration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${Math.round(s - m * 60)} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

const VIA: Record<Approver["via"], string> = {
  cli: "the terminal",
  flag: "a flag given in advance",
  comment: "comment",
  review: "review",
  label: "label",
  check_run: "the check run button",
  eval: "the eval script",
  auto: "auto-approval",
  automation: "an automation",
};

const via = (by: Approver): string => VIA[by.via] ?? by.via;

/** `@alice via review`; an automation by the words of its approval, which name no person. */
export const byWhom = (by: Approver): string => (by.via === "automation" ? (by.how ?? by.login) : `@${by.login} via ${via(by)}`);

/**
 * An approval in words: `approved` by `@alice via review`, or — a flag given before anything existed —
 * `pre-approved` by `--approve-plan`, so a report never says a human looked at what a flag let through.
 */
export const approval = (by: Approver): { verb: string; who: string } =>
  by.via === "flag" ? { verb: "pre-approved", who: by.login } : { verb: "approved", who: byWhom(by) };
export const approvedBy = (by: Approver): string => `${approval(by).verb} by ${approval(by).who}`;

const FAILURE_WORDS: Record<FailureReason, string> = {
  llm_empty: "the model answered with nothing, twice",
  llm_error: "the model provider failed",
  loop_limit: "it ran out of steps",
  budget_exceeded: "the budget is spent",
  workspace_error: "the workspace could not be prepared",
  config_invalid: "the repository configuration is invalid",
  publish_failed: "publishing failed",
  branch_conflict: "the branch got commits Patchgate did not make, and the change does not apply on them",
  worker_died: "the workers running it died, so its job was dead-lettered",
  internal: "an internal error",
};

export const failureWords = (reason: string): string => FAILURE_WORDS[reason as FailureReason] ?? reason.replace(/_/g, " ");

const BLOCKED_WORDS: Record<BlockedReason, string> = {
  toolchain_missing: "a toolchain the repository needs is not installed on the host",
  reported_by_agent: "the agent reported that it cannot finish",
  no_test_command: "the repository has no test command",
};

export const blockedWords = (reason: string): string => BLOCKED_WORDS[reason as BlockedReason] ?? reason.replace(/_/g, " ");

/** How a call got permission to run: the human who approved its batch, or the rule that allowed it. */
export function permission(c: CallView): Inline[] {
  if (c.batch?.verdict) {
    const v = c.batch.verdict;
    return v.granted ? [approvedBy(v.by)] : [`denied by ${byWhom(v.by)}`];
  }
  if (c.batch) return ["waiting for approval"];
  if (!c.policy) return [];
  if (c.policy.rule === "session:writes-approved") return ["allowed: all writes approved by label"];
  if (c.policy.decision === "deny") return ["refused by ", code(c.policy.rule)];
  return ["allowed by ", code(c.policy.rule)];
}

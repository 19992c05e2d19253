import { BUILTIN_RULE } from "./builtin-rules.js";
import type { ActionRequest, PolicyDecision } from "./types.js";

/** Answers a session already holds before any request is made. */
export interface StandingAnswers {
  /** A human approved every write of the session at once (the `agent:writes-approved` label). */
  autoApproveWrites: boolean;
  /** Nobody will answer a question: what would ask is refused instead, so the session carries on. */
  unattended: boolean;
}

/**
 * What the standing answers make of a policy verdict, before anyone would be asked: an `ask` write
 * is allowed when all writes are approved (executable configuration excepted); any other `ask` is refused in an unattended session. A deny
 * stays a deny, and a command is never approved in advance.
 */
export function applyStandingAnswers(verdict: PolicyDecision, request: ActionRequest, answers: StandingAnswers): PolicyDecision {
  if (verdict.decision !== "ask") return verdict;
  // Executable configuration needs its own approval: approving every write never covers it.
  if (request.kind === "write" && answers.autoApproveWrites && verdict.executableConfig === undefined)
    return { decision: "allow", rule: BUILTIN_RULE.WRITES_APPROVED };
  if (!answers.unattended) return verdict;
  return {
    ...verdict,
    decision: "deny",
    rule: BUILTIN_RULE.UNATTENDED,
    reason: `it needs a maintainer's approval (${verdict.rule}) and this session runs unattended, so nobody can give it${verdict.reason ? `; ${verdict.reason}` : ""}`,
  };
}

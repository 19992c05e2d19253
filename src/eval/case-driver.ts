import { publishToLocalBranch } from "../publish/local-branch.js";
import { resumeSession } from "../agent/run-session.js";
import type { ResumeOptions } from "../agent/runtime-options.js";
import type { Ledger } from "../store/ledger.js";
import type { Workspace } from "../workspace/types.js";

const EVAL_AUTHOR = { name: "Patchgate Eval", email: "eval@patchgate.invalid" };

/** A park a human answers. */
export type Park = "awaiting_plan_approval" | "awaiting_write_approval" | "awaiting_integrity_approval" | "awaiting_grant" | "awaiting_answer";

/** Who answers the parks: a case's scripted human, or a replay's recorded one (replay/replay-human.ts). */
export interface CaseHuman {
  /** Appends the answer to the park; returns the resume trigger, or null to leave the session parked. */
  answer(ledger: Ledger, park: Park): Promise<string | null>;
  /** True right after an answer after which the runner restarts the process. */
  readonly restartDue: boolean;
}

export type CaseDriveResult = { kind: "ended" } | { kind: "parked" } | { kind: "restart"; trigger: string };

/**
 * Resumes the session until it ends or a park stays unanswered, the way the webhook handlers would:
 * each human answer is appended first, then the session is resumed with that trigger. Stops with
 * "restart" (answer stored, not yet resumed) when the human says a restart is due.
 */
export async function driveCase(ledger: Ledger, ws: Workspace, opts: ResumeOptions, human: CaseHuman): Promise<CaseDriveResult> {
  for (let trigger = opts.trigger ?? "eval"; ;) {
    const outcome = await resumeSession(ledger, { ...opts, trigger });
    // The eval keeps no blocked work (keepBlockedWork unset): a blocked report ends the session.
    if (outcome.kind === "ended" || outcome.kind === "keep_blocked_work") return { kind: "ended" };
    if (outcome.kind === "ready_to_publish") {
      await publishLocally(ledger, ws);
      return { kind: "ended" };
    }
    // The eval runs without operator budgets (no spend gate): a budget park, were there one, waits for nobody.
    if (outcome.phase === "awaiting_budget") return { kind: "parked" };
    const answered = await human.answer(ledger, outcome.phase);
    if (answered === null) return { kind: "parked" };
    if (human.restartDue) return { kind: "restart", trigger: answered };
    trigger = answered;
  }
}

/** Eval publishes to a local branch `patchgate/eval-<id>` of the workspace. */
function publishLocally(ledger: Ledger, ws: Workspace): Promise<void> {
  return publishToLocalBranch(ledger, ws, { prefix: "patchgate/eval-", author: EVAL_AUTHOR, trailer: `Patchgate eval session ${ledger.sessionId}` });
}

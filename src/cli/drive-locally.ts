import { resumeSession } from "../agent/run-session.js";
import {
  answerQuestion,
  approveGrant,
  approveIntegrity,
  approvePlan,
  approveWrites,
  denyGrant,
  denyIntegrity,
  denyWrites,
  requestRevision,
} from "../agent/approvals.js";
import type { ResumeOptions } from "../agent/runtime-options.js";
import type { Ledger } from "../store/ledger.js";
import type { Workspace } from "../workspace/types.js";
import { secretsFromEnv } from "../safety/secrets.js";
import type { Approver, BlockedWork } from "../session/types.js";
import { keepBlockedWorkInClone, publishLocally } from "./local-publisher.js";
import { hostEnvironment } from "../process/index.js";
import type { ReceiptSigner } from "../receipt/record-receipt.js";

/** How a human answers at the terminal; `null` = nobody can answer now (non-interactive): leave it parked. */
export interface TerminalApprover {
  /** `flag`: the approval came from a flag given in advance (`--approve-plan`), not from a human who saw it. */
  plan(ledger: Ledger): Promise<{ approve: true; flag?: string } | { approve: false; feedback: string } | null>;
  /** `executableConfig`: the human said yes to the batch's executable configuration too, in a question of its own. */
  writes(ledger: Ledger): Promise<{ approve: true; flag?: string; executableConfig?: boolean } | { approve: false; reason: string } | null>;
  /** The decision on a test_integrity request: only a human at the terminal gives it, never a flag; absent or null: it stays parked. */
  integrity?(ledger: Ledger): Promise<{ approve: true } | { approve: false; reason: string } | null>;
  /** The decision on a grant request (request_grant): only a human at the terminal gives it, never a flag; absent or null: it stays parked. */
  grant?(ledger: Ledger): Promise<{ approve: true } | { approve: false; reason: string } | null>;
  /** The answer to the agent's question (ask_human); absent or null: the session stays parked. */
  answer?(ledger: Ledger): Promise<string | null>;
}

export type LocalDriveResult =
  | { kind: "done"; branch: string; commit: string }
  | { kind: "parked" }
  | { kind: "failed" | "cancelled" }
  | { kind: "blocked"; message: string; work?: BlockedWork };

/**
 * Resumes until the session ends, answering parks through `approver` and publishing to a local branch.
 * Each answer is an event in the ledger before the next resume, exactly as a webhook would record it.
 */
export async function driveLocally(
  ledger: Ledger,
  ws: Workspace,
  opts: ResumeOptions,
  approver: TerminalApprover,
  receipt?: ReceiptSigner,
): Promise<LocalDriveResult> {
  for (let trigger = opts.trigger ?? "cli"; ;) {
    const outcome = await resumeSession(ledger, { ...opts, trigger, keepBlockedWork: true });
    if (outcome.kind === "keep_blocked_work")
      await keepBlockedWorkInClone(ledger, ws, opts.repoConfig.policy.protected_paths, opts.secrets ?? secretsFromEnv(hostEnvironment()));
    if (outcome.kind === "ended" || outcome.kind === "keep_blocked_work") {
      const phase = ledger.state.phase;
      if (phase === "done") return doneResult(ledger);
      if (phase === "blocked")
        return { kind: "blocked", message: ledger.state.blocked?.message ?? "", ...(ledger.state.blocked?.work ? { work: ledger.state.blocked.work } : {}) };
      return { kind: phase === "cancelled" ? "cancelled" : "failed" };
    }
    if (outcome.kind === "ready_to_publish") {
      await publishLocally(ledger, ws, receipt);
      return doneResult(ledger);
    }
    if (outcome.phase === "awaiting_plan_approval") {
      const answer = await approver.plan(ledger);
      if (answer === null) return { kind: "parked" };
      if (answer.approve) await approvePlan(ledger, whoApproved(answer.flag), ledger.state.planHash ?? "");
      else await requestRevision(ledger, { login: "cli", via: "cli" }, answer.feedback);
      trigger = answer.approve ? "plan approved" : "plan revision";
      continue;
    }
    if (outcome.phase === "awaiting_answer") {
      const answer = (await approver.answer?.(ledger)) ?? null;
      if (answer === null) return { kind: "parked" };
      await answerQuestion(ledger, { login: "cli", via: "cli" }, answer);
      trigger = "question answered";
      continue;
    }
    if (outcome.phase === "awaiting_integrity_approval") {
      const answer = (await approver.integrity?.(ledger)) ?? null;
      if (answer === null) return { kind: "parked" };
      const digest = ledger.state.integrity?.digest ?? "";
      if (answer.approve) await approveIntegrity(ledger, { login: "cli", via: "cli" }, digest);
      else await denyIntegrity(ledger, { login: "cli", via: "cli" }, digest, answer.reason);
      trigger = answer.approve ? "test integrity approved" : "test integrity denied";
      continue;
    }
    if (outcome.phase === "awaiting_grant") {
      const answer = (await approver.grant?.(ledger)) ?? null;
      if (answer === null) return { kind: "parked" };
      const digest = ledger.state.grantRequest?.digest ?? "";
      if (answer.approve) await approveGrant(ledger, { login: "cli", via: "cli" }, digest);
      else await denyGrant(ledger, { login: "cli", via: "cli" }, digest, answer.reason);
      trigger = answer.approve ? "grant approved" : "grant denied";
      continue;
    }
    // The CLI drives without the operator's spend gate; a park it did not make is left for whoever made it.
    if (outcome.phase === "awaiting_budget") return { kind: "parked" };
    const digest = ledger.state.pending?.digest ?? "";
    const answer = await approver.writes(ledger);
    if (answer === null) return { kind: "parked" };
    if (answer.approve) await approveWrites(ledger, whoApproved(answer.flag), digest, answer.executableConfig === true);
    else await denyWrites(ledger, { login: "cli", via: "cli" }, digest, answer.reason);
    trigger = answer.approve ? "writes approved" : "writes denied";
  }
}

function doneResult(ledger: Ledger): LocalDriveResult {
  const p = ledger.state.published;
  return p ? { kind: "done", branch: p.branch, commit: p.commit } : { kind: "failed" };
}

/** Who an approval is recorded as: the terminal's user, or the flag that answered before anyone saw it. */
function whoApproved(flag: string | undefined): Approver {
  return flag ? { login: flag, via: "flag" } : { login: "cli", via: "cli" };
}

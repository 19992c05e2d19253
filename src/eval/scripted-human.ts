import { approveIntegrity, approvePlan, approveWrites, autoApproveWrites, denyIntegrity, denyWrites, requestRevision } from "../agent/approvals.js";
import type { Ledger } from "../store/ledger.js";
import type { Approver } from "../session/types.js";
import type { CaseHuman, Park } from "./case-driver.js";
import { approvalParkKind, type Approval, type ApprovalFallback } from "./approval-schema.js";

export const EVAL_APPROVER: Approver = { login: "eval-maintainer", via: "eval" };

/**
 * The human of a case: answers each park with the next scripted approval. Every answer is an event
 * appended through the runtime's approval functions (bound to the current plan hash or batch digest),
 * exactly as a webhook would record it, before the session resumes.
 *
 * It also says where the runner restarts the process: right after answering a park listed in
 * `restartAt` — the answer is stored, the resume has not happened — which is what a crash between a
 * webhook's write and its resume leaves behind. The new process must pick the answer up from the store.
 */
export class ScriptedHuman implements CaseHuman {
  private next = 0;
  private parks = 0;
  /** Why the human stopped answering, when it did (reported with the case). */
  readonly notes: string[] = [];

  constructor(
    private readonly approvals: Approval[],
    private readonly fallback: ApprovalFallback,
    private readonly restartAt: number[] = [],
  ) {}

  /** True right after answering a park listed in `restartAt`. */
  get restartDue(): boolean {
    return this.restartAt.includes(this.parks);
  }

  /** Answers the park; returns the resume trigger, or null to leave the session parked. */
  async answer(ledger: Ledger, park: Park): Promise<string | null> {
    if (park === "awaiting_answer") {
      this.notes.push("the agent asked a question (ask_human); a case's scripted human answers approvals only");
      return null;
    }
    if (park === "awaiting_grant") {
      this.notes.push("the agent asked for a grant (request_grant); a case's scripted human answers approvals only");
      return null;
    }
    const kind = park === "awaiting_plan_approval" ? "plan" : park === "awaiting_integrity_approval" ? "integrity" : "writes";
    const a = this.take(kind);
    if (a === null) return null;
    this.parks += 1;
    const { planHash, pending, integrity } = ledger.state;
    switch (a.action) {
      case "approve_plan":
        await approvePlan(ledger, EVAL_APPROVER, planHash ?? "");
        return "plan approved";
      case "revise":
        await requestRevision(ledger, EVAL_APPROVER, a.feedback);
        return "plan revision";
      case "approve_writes":
        await approveWrites(ledger, EVAL_APPROVER, pending?.digest ?? "");
        return "writes approved";
      case "approve_all_writes":
        await autoApproveWrites(ledger, EVAL_APPROVER);
        return "writes approved (all)";
      case "deny_writes":
        await denyWrites(ledger, EVAL_APPROVER, pending?.digest ?? "", a.reason);
        return "writes denied";
      case "approve_integrity":
        await approveIntegrity(ledger, EVAL_APPROVER, integrity?.digest ?? "");
        return "test integrity approved";
      case "deny_integrity":
        await denyIntegrity(ledger, EVAL_APPROVER, integrity?.digest ?? "", a.reason);
        return "test integrity denied";
    }
  }

  /** The next approval if it fits this park, else the fallback's answer, or null. */
  private take(kind: "plan" | "writes" | "integrity"): Approval | null {
    const a = this.approvals[this.next];
    if (a !== undefined && approvalParkKind(a) === kind) {
      this.next += 1;
      return a;
    }
    const why = a === undefined ? "no scripted approval left" : `the next scripted approval is ${a.action}`;
    // Weakened tests are never approved by default: only a scripted step says yes to them.
    if (this.fallback === "stop" || kind === "integrity") {
      this.notes.push(`left parked at ${kind} park ${this.parks + 1}: ${why}`);
      return null;
    }
    return kind === "plan" ? { action: "approve_plan" } : { action: "approve_writes" };
  }
}

import {
  answerQuestion,
  approveIntegrity,
  approvePlan,
  approveWrites,
  autoApproveWrites,
  denyIntegrity,
  denyWrites,
  requestRevision,
} from "../../agent/approvals.js";
import type { Ledger } from "../../store/ledger.js";
import type { CaseHuman, Park } from "../case-driver.js";
import type { HumanDecision } from "./recording.js";

/** The replay reached a park where the recorded decision does not fit: what was recorded, what the replay asks. */
export interface DecisionMismatch {
  seq: number;
  recorded: string;
  replayed: string;
}

const PARK_OF: Record<HumanDecision["type"], Park> = {
  plan_approved: "awaiting_plan_approval",
  plan_revision_requested: "awaiting_plan_approval",
  approval_granted: "awaiting_write_approval",
  approval_denied: "awaiting_write_approval",
  writes_auto_approved: "awaiting_write_approval",
  question_answered: "awaiting_answer",
  integrity_approved: "awaiting_integrity_approval",
  integrity_denied: "awaiting_integrity_approval",
};

/**
 * The humans of the recorded session, in order: each park of the replay gets the next recorded
 * decision, appended through the runtime's approval functions by the same approver, when it is a
 * decision for this kind of park bound to the same plan hash or batch digest. Otherwise the human
 * stops answering (the session stays parked) and says why; a recording that ends parked ends so too.
 */
export class ReplayHuman implements CaseHuman {
  private next = 0;
  readonly restartDue = false;
  mismatch: DecisionMismatch | null = null;

  constructor(private readonly decisions: readonly HumanDecision[]) {}

  async answer(ledger: Ledger, park: Park): Promise<string | null> {
    const d = this.decisions.at(this.next);
    if (d === undefined || this.mismatch) return null;
    if (PARK_OF[d.type] !== park) return this.refuse(d, park);
    const bound = boundTo(d);
    const asked =
      park === "awaiting_plan_approval"
        ? ledger.state.planHash
        : park === "awaiting_integrity_approval"
          ? ledger.state.integrity?.digest
          : ledger.state.pending?.digest;
    if (bound !== null && bound !== asked) return this.refuse(d, `${park} for ${asked ?? "nothing"}`);
    this.next += 1;
    switch (d.type) {
      case "plan_approved":
        await approvePlan(ledger, d.by, d.hash);
        return "replay: plan approved";
      case "plan_revision_requested":
        await requestRevision(ledger, d.by, d.feedback);
        return "replay: plan revision";
      case "approval_granted":
        await approveWrites(ledger, d.by, d.digest, d.executableConfig === true);
        return "replay: writes approved";
      case "approval_denied":
        await denyWrites(ledger, d.by, d.digest, d.reason);
        return "replay: writes denied";
      case "writes_auto_approved":
        // autoApproveWrites grants the waiting batch with it, as the recorded approval_granted after it says.
        if (this.decisions.at(this.next)?.type === "approval_granted") this.next += 1;
        await autoApproveWrites(ledger, d.by);
        return "replay: writes approved (all)";
      case "question_answered":
        await answerQuestion(ledger, d.by, d.answer);
        return "replay: question answered";
      case "integrity_approved":
        await approveIntegrity(ledger, d.by, d.digest);
        return "replay: test-integrity findings approved";
      case "integrity_denied":
        await denyIntegrity(ledger, d.by, d.digest, d.reason);
        return "replay: test-integrity findings denied";
    }
  }

  private refuse(d: HumanDecision, replayed: string): null {
    this.mismatch = { seq: d.seq, recorded: `${d.type}${boundTo(d) === null ? "" : ` for ${boundTo(d)}`}`, replayed };
    return null;
  }
}

/** The plan hash or batch digest a decision is bound to; null for one bound to none. */
function boundTo(d: HumanDecision): string | null {
  switch (d.type) {
    case "plan_approved":
      return d.hash;
    case "approval_granted":
    case "approval_denied":
    case "integrity_approved":
    case "integrity_denied":
      return d.digest;
    default:
      return null;
  }
}

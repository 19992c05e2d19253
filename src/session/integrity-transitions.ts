import { IllegalTransitionError, StaleApprovalError } from "./errors.js";
import type { SessionEvent } from "./events.js";
import { requireOpen } from "./open-calls.js";
import { requirePhase } from "./phase-guards.js";
import type { SessionState } from "./state.js";
import { INTEGRITY_APPROVER_VIAS } from "./test-integrity.js";

type IntegrityEvent = Extract<SessionEvent, { type: "integrity_requested" | "integrity_approved" | "integrity_denied" | "integrity_checked" }>;

/**
 * The `test_integrity` request's transitions. finish asks while its call stays open; only a decision
 * on the same findings (digest) lets it go on; finish is recorded as checked only with no findings or
 * with an approval of exactly these.
 */
export function reduceIntegrity(s: SessionState, next: SessionState, e: IntegrityEvent): SessionState {
  switch (e.type) {
    case "integrity_requested": {
      requirePhase(s, e, ["executing"]);
      requireOpen(s, e.type, e.callId);
      if (s.openCalls.find((c) => c.id === e.callId)?.name !== "finish")
        throw new IllegalTransitionError(e.type, s.phase, `call ${e.callId} is not a finish call`);
      if (s.pending) throw new IllegalTransitionError(e.type, s.phase, "a batch of writes is still open");
      if (e.report.findings.length === 0) throw new IllegalTransitionError(e.type, s.phase, "a request without findings asks nothing");
      return { ...next, phase: "awaiting_integrity_approval", integrity: { callId: e.callId, digest: e.digest, report: e.report, status: "pending" } };
    }
    case "integrity_approved":
    case "integrity_denied": {
      requirePhase(s, e, ["awaiting_integrity_approval"]);
      if (s.integrity?.status !== "pending") throw new IllegalTransitionError(e.type, s.phase, "no test_integrity request is waiting");
      if (e.digest !== s.integrity.digest) throw new StaleApprovalError(s.integrity.digest, e.digest);
      if (e.type === "integrity_approved" && !INTEGRITY_APPROVER_VIAS.includes(e.by.via)) {
        throw new IllegalTransitionError(e.type, s.phase, `weakened tests are approved only by a human shown the findings, not by ${e.by.via}`);
      }
      const decided = e.type === "integrity_approved" ? { status: "approved" as const } : { status: "denied" as const, reason: e.reason };
      return { ...next, phase: "executing", integrity: { ...s.integrity, ...decided, decidedBy: e.by } };
    }
    case "integrity_checked": {
      requirePhase(s, e, ["executing"]);
      const approved = s.integrity?.status === "approved" && s.integrity.digest === e.digest;
      if (e.report.findings.length > 0 && !approved) {
        throw new IllegalTransitionError(e.type, s.phase, "the tests are weakened and no human approved these findings");
      }
      const approvedBy = e.report.findings.length > 0 ? (s.integrity?.decidedBy ?? null) : null;
      return { ...next, integrityChecked: { treeHash: e.treeHash, digest: e.digest, report: e.report, approvedBy } };
    }
  }
}

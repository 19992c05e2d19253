import type { Ledger } from "../store/ledger.js";
import type { Approver } from "../session/types.js";
import { reopenPhase } from "../session/reopen-phase.js";

/**
 * Human decisions are events. Each function appends one; the reducer rejects stale or illegal ones with a
 * typed error (StaleApprovalError, IllegalTransitionError) and nothing is stored. Resuming is the caller's job.
 */
export function approvePlan(ledger: Ledger, by: Approver, hash: string) {
  return ledger.append({ type: "plan_approved", hash, by });
}

/** The answer to the open question (ask_human); the reducer refuses it unless that question is the one waiting. */
export function answerQuestion(ledger: Ledger, by: Approver, answer: string) {
  return ledger.append({ type: "question_answered", index: ledger.state.questions.length - 1, answer, by });
}

export function requestRevision(ledger: Ledger, by: Approver, feedback: string) {
  return ledger.append({ type: "plan_revision_requested", feedback, by });
}

/** `executableConfig`: the human approved the batch's executable configuration too (a comment or the terminal only). */
export function approveWrites(ledger: Ledger, by: Approver, digest: string, executableConfig = false) {
  return ledger.append({ type: "approval_granted", digest, by, ...(executableConfig ? { executableConfig: true } : {}) });
}

export function denyWrites(ledger: Ledger, by: Approver, digest: string, reason: string) {
  return ledger.append({ type: "approval_denied", digest, by, reason });
}

/**
 * The decision on a `test_integrity` request, bound to its digest (the findings). Only a human shown
 * the findings approves: the reducer refuses an approval by a label, a flag or an automation.
 */
export function approveIntegrity(ledger: Ledger, by: Approver, digest: string) {
  return ledger.append({ type: "integrity_approved", digest, by });
}

export function denyIntegrity(ledger: Ledger, by: Approver, digest: string, reason: string) {
  return ledger.append({ type: "integrity_denied", digest, by, reason });
}

/** Every later `ask` write is allowed; a batch already waiting is approved with it (never its executable configuration). */
export async function autoApproveWrites(ledger: Ledger, by: Approver) {
  const pending = ledger.state.pending;
  if (pending && pending.status === "pending") {
    return ledger.append({ type: "writes_auto_approved", by }, { type: "approval_granted", digest: pending.digest, by });
  }
  return ledger.append({ type: "writes_auto_approved", by });
}

/** A failed session continues where it failed (`/agent retry`); the reducer refuses any other phase. */
export function reopenSession(ledger: Ledger, by: string) {
  return ledger.append({ type: "session_reopened", by, phase: reopenPhase(ledger.state) });
}

export function cancelSession(ledger: Ledger, by: string, reason?: string, source?: string) {
  return ledger.append({ type: "session_cancelled", by, reason, ...(source ? { source } : {}) });
}

/**
 * The decision on a grant request (request_grant), bound to its digest. Only a human shown the
 * request approves: the reducer refuses a flag or an automation, and the requester where the
 * repository's config asks for another approver.
 */
export function approveGrant(ledger: Ledger, by: Approver, digest: string) {
  return ledger.append({ type: "grant_approved", digest, by });
}

export function denyGrant(ledger: Ledger, by: Approver, digest: string, reason: string) {
  return ledger.append({ type: "grant_denied", digest, by, reason });
}

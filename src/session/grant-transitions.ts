import { IllegalTransitionError, StaleApprovalError } from "./errors.js";
import type { SessionEvent } from "./events.js";
import { GRANT_APPROVER_VIAS } from "./grants.js";
import { requireOpen } from "./open-calls.js";
import { requirePhase } from "./phase-guards.js";
import type { SessionState } from "./state.js";

type GrantEvent = Extract<SessionEvent, { type: "grant_requested" | "grant_approved" | "grant_denied" }>;

/**
 * A grant request's transitions. request_grant asks while its call stays open, apart from any batch
 * of writes; only a decision on the same request (digest) lets the session go on, and only an
 * approval adds the grant, for the rest of this session.
 */
export function reduceGrant(s: SessionState, next: SessionState, e: GrantEvent): SessionState {
  switch (e.type) {
    case "grant_requested": {
      requirePhase(s, e, ["executing"]);
      requireOpen(s, e.type, e.callId);
      if (s.openCalls.find((c) => c.id === e.callId)?.name !== "request_grant")
        throw new IllegalTransitionError(e.type, s.phase, `call ${e.callId} is not a request_grant call`);
      if (s.pending) throw new IllegalTransitionError(e.type, s.phase, "a batch of writes is still open");
      if (s.settings.unattended === true) throw new IllegalTransitionError(e.type, s.phase, "nobody decides grants in an unattended session");
      return { ...next, phase: "awaiting_grant", grantRequest: { callId: e.callId, digest: e.digest, request: e.request, status: "pending" } };
    }
    case "grant_approved":
    case "grant_denied": {
      requirePhase(s, e, ["awaiting_grant"]);
      const req = s.grantRequest;
      if (req?.status !== "pending") throw new IllegalTransitionError(e.type, s.phase, "no grant request is waiting");
      if (e.digest !== req.digest) throw new StaleApprovalError(req.digest, e.digest);
      if (e.type === "grant_denied") {
        return { ...next, phase: "executing", grantRequest: { ...req, status: "denied", decidedBy: e.by, reason: e.reason } };
      }
      if (!GRANT_APPROVER_VIAS.includes(e.by.via)) {
        throw new IllegalTransitionError(e.type, s.phase, `a grant is approved only by a human shown the request, not by ${e.by.via}`);
      }
      if (requiresOtherApprover(s) && e.by.login === s.task.source.requester) {
        throw new IllegalTransitionError(e.type, s.phase, "the repository's config requires an approver other than the requester");
      }
      return {
        ...next,
        phase: "executing",
        grantRequest: { ...req, status: "approved", decidedBy: e.by },
        grants: [...s.grants, { ...req.request, digest: req.digest, by: e.by }],
      };
    }
  }
}

/** `approvals.grants: not_requester` in the config snapshot the session started with (plain JSON here: the core imports no config). */
function requiresOtherApprover(s: SessionState): boolean {
  const approvals = s.repoConfig?.approvals;
  return typeof approvals === "object" && approvals !== null && (approvals as Record<string, unknown>).grants === "not_requester";
}

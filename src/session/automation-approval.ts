import { IllegalTransitionError } from "./errors.js";
import type { SessionEvent } from "./events.js";
import type { SessionState } from "./state.js";
import type { Approver } from "./types.js";

/**
 * What an automation may approve: the plan of a session it started itself, when its entry in
 * `.github/patchgate.yml` says `approve_plan: auto`; nothing else. Held here, in the reducer, so that
 * a wrong decision upstream (an approver built for the wrong session, a write routed as a plan)
 * is still refused when it is recorded.
 */

/** Who may approve a batch of writes (or every later write at once): anyone but an automation. */
const WRITE_APPROVER_VIAS: readonly Approver["via"][] = ["cli", "flag", "comment", "review", "label", "check_run", "eval", "auto"];

/** The login an automation's approval is recorded under: its name, never a person's. */
export function automationLogin(name: string): string {
  return `automation:${name}`;
}

type Decision = Extract<SessionEvent, { type: "plan_approved" | "approval_granted" | "writes_auto_approved" }>;

export function requireAutomationMayApprove(s: SessionState, e: Decision): void {
  if (e.type !== "plan_approved") {
    if (!WRITE_APPROVER_VIAS.includes(e.by.via)) throw new IllegalTransitionError(e.type, s.phase, `writes are approved by a person, never by ${e.by.via}`);
    return;
  }
  if (e.by.via !== "automation") return;
  const a = s.task.source.automation;
  if (!a || !a.approvePlan || e.by.login !== automationLogin(a.name))
    throw new IllegalTransitionError(e.type, s.phase, `${e.by.login} did not start this session with approve_plan: auto`);
}

import { IllegalTransitionError } from "./errors.js";
import type { SessionEvent } from "./events.js";
import type { SessionState } from "./state.js";
import { TERMINAL_PHASES, type Phase } from "./types.js";

/** The reducer's preconditions: an event is legal only in the phases that name it. */
export function requirePhase(s: SessionState, e: SessionEvent, allowed: Phase[]): void {
  if (!allowed.includes(s.phase)) {
    throw new IllegalTransitionError(e.type, s.phase, `allowed only in ${allowed.join(", ")}`);
  }
}

export function requireLive(s: SessionState, e: SessionEvent): void {
  if (TERMINAL_PHASES.includes(s.phase)) throw new IllegalTransitionError(e.type, s.phase, "session has ended");
}

import type { Phase } from "./types.js";
import { FatalError, HandledError } from "../errors/index.js";

/** An event that does not fit the session's current state. Never applied; the caller sees why. */
export class IllegalTransitionError extends FatalError {
  readonly kind = "illegal_transition";
  constructor(
    readonly eventType: string,
    readonly phase: Phase,
    readonly why: string,
  ) {
    super(`cannot apply ${eventType} in phase ${phase}: ${why}`);
  }
}

/** An approval that names a plan hash or batch digest other than the current one. */
export class StaleApprovalError extends HandledError {
  readonly kind = "stale_approval";
  constructor(
    readonly expected: string | null,
    readonly got: string,
  ) {
    super(`approval is for ${got.slice(0, 12)} but the current one is ${expected ? expected.slice(0, 12) : "none"}`);
  }
}

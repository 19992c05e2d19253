import type { Phase } from "./types.js";

/** An event that does not fit the session's current state. Never applied; the caller sees why. */
export class IllegalTransitionError extends Error {
  readonly name = "IllegalTransitionError";
  constructor(
    readonly eventType: string,
    readonly phase: Phase,
    readonly why: string,
  ) {
    super(`cannot apply ${eventType} in phase ${phase}: ${why}`);
  }
  static isInstance(e: unknown): e is IllegalTransitionError {
    return e instanceof Error && e.name === "IllegalTransitionError";
  }
}

/** An approval that names a plan hash or batch digest other than the current one. */
export class StaleApprovalError extends Error {
  readonly name = "StaleApprovalError";
  constructor(
    readonly expected: string | null,
    readonly got: string,
  ) {
    super(`approval is for ${got.slice(0, 12)} but the current one is ${expected ? expected.slice(0, 12) : "none"}`);
  }
  static isInstance(e: unknown): e is StaleApprovalError {
    return e instanceof Error && e.name === "StaleApprovalError";
  }
}

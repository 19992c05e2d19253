import type { Phase } from "../session/types.js";

/** Where a resume left the session. Parking means: nothing waits in memory; the next event resumes it. */
export type ResumeOutcome =
  | {
      kind: "parked";
      phase: "awaiting_plan_approval" | "awaiting_write_approval" | "awaiting_integrity_approval" | "awaiting_grant" | "awaiting_answer" | "awaiting_budget";
    }
  /** finish was accepted: the caller publishes (local branch or PR) and appends `published`. */
  | { kind: "ready_to_publish" }
  /**
   * The agent reported blocked in execute mode with work written (and the caller keeps such work):
   * the caller pushes the work so far, untested, then appends `session_blocked` with where it went.
   */
  | { kind: "keep_blocked_work" }
  | { kind: "ended"; phase: Extract<Phase, "done" | "failed" | "cancelled" | "blocked"> };

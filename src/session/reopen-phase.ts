import type { SessionState } from "./state.js";
import type { Phase } from "./types.js";

/** Where a failed session continues: where it failed, except that a failed publication is retried from executing. */

export function reopenPhase(s: SessionState): Phase {
  if (s.phase !== "failed" || s.failedIn === null) return s.phase;
  return s.failedIn === "publishing" ? "executing" : s.failedIn;
}

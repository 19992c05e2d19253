import type { Ledger } from "../store/ledger.js";
import { TERMINAL_PHASES } from "../session/types.js";
import type { ResumeOutcome } from "./outcome.js";

/** The outcome implied by the phase alone, or null when the loop should run. */
export function outcomeOf(ledger: Ledger): ResumeOutcome | null {
  const phase = ledger.state.phase;
  if (phase === "done" || phase === "failed" || phase === "cancelled" || phase === "blocked") return { kind: "ended", phase };
  if (
    phase === "awaiting_plan_approval" ||
    phase === "awaiting_write_approval" ||
    phase === "awaiting_integrity_approval" ||
    phase === "awaiting_grant" ||
    phase === "awaiting_answer" ||
    phase === "awaiting_budget"
  )
    return { kind: "parked", phase };
  if (phase === "publishing") return { kind: "ready_to_publish" };
  if (phase === "queued") throw new Error(`session ${ledger.sessionId} has no workspace yet: prepare it before resuming`);
  return null;
}

export async function failSession(
  ledger: Ledger,
  reason: "llm_empty" | "llm_error" | "loop_limit" | "budget_exceeded",
  message: string,
): Promise<ResumeOutcome> {
  await ledger.append({ type: "session_failed", reason, message });
  return { kind: "ended", phase: "failed" };
}

/**
 * An abort ends the session as cancelled, with the abort's reason (a stop, an uninstall), unless
 * whoever aborted already recorded how it ended.
 */
export async function cancelSession(ledger: Ledger, signal?: AbortSignal): Promise<ResumeOutcome> {
  if (!TERMINAL_PHASES.includes(ledger.state.phase)) {
    const reason = signal?.reason instanceof Error && signal.reason.message ? signal.reason.message : "aborted";
    await ledger.append({ type: "session_cancelled", by: "runtime", reason });
  }
  return outcomeOf(ledger) ?? { kind: "ended", phase: "cancelled" };
}

import type { Ledger } from "../store/ledger.js";
import type { ResumeOutcome } from "./outcome.js";
import { RESUME_STEPS } from "./resume.js";
import { newResumeEnv, runSteps } from "./resume-steps.js";
import type { ResumeOptions } from "./runtime-options.js";

/**
 * Runs the bounded loop from wherever the ledger says the session is, until it parks for a human,
 * finish is accepted, or it ends. Nothing is held in memory between resumes: the ledger is the state.
 * The steps, in order, are ./resume.ts RESUME_STEPS.
 */
export async function resumeSession(ledger: Ledger, opts: ResumeOptions): Promise<ResumeOutcome> {
  return runSteps(RESUME_STEPS, newResumeEnv(ledger, opts));
}

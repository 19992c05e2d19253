import type { Ledger } from "../store/ledger.js";
import type { McpSession } from "../mcp/index.js";
import { NO_BASELINE, type BaselineRun } from "./baseline.js";
import type { CallEnv } from "./call-env.js";
import type { ResumeOutcome } from "./outcome.js";
import type { ResumeOptions } from "./runtime-options.js";

/** One named step of a resume; the first step that returns an outcome ends the resume with it. */
export interface ResumeStep {
  name: string;
  /** One line: what the step does (ARCHITECTURE.md shows the list with it). */
  doc: string;
  run: (env: ResumeEnv) => Promise<ResumeOutcome | null>;
}

/** How a resume has ended so far: with an outcome, or with an error still to be thrown. */
type ResumeEnding = { outcome: ResumeOutcome } | { error: unknown };

/**
 * What runs on the way out for something a step opened, as a `finally` would: it is told how the
 * resume has ended so far and returns how it ends now; one that throws ends it with its error.
 */
type ResumeExit = (ending: ResumeEnding) => Promise<ResumeEnding>;

/**
 * What the steps of one resume share. A field is set by the step its comment names and read only by
 * steps after that one, so the order of ./resume.ts RESUME_STEPS is the order of everything here.
 */
export interface ResumeEnv {
  readonly ledger: Ledger;
  /** The caller's options; `cancelOnAbort` binds the workspace to the signal, `openSandbox` puts in the session's sandbox. */
  opts: ResumeOptions;
  /** Built by `buildCallEnv`. */
  call: CallEnv | null;
  /** Opened by `openMcp`; null when no MCP server is configured. */
  mcp: McpSession | null;
  /** Started by `startBaseline`; until then, and when none is due, one that does not run. */
  baseline: BaselineRun;
  /** Added to by the steps that open something; run last first when the resume ends. */
  readonly exits: ResumeExit[];
}

export function newResumeEnv(ledger: Ledger, opts: ResumeOptions): ResumeEnv {
  return { ledger, opts, call: null, mcp: null, baseline: NO_BASELINE, exits: [] };
}

/** The call handler's env; asked for by a step before `buildCallEnv`, it is a mistake in the list's order. */
export function callEnvOf(env: ResumeEnv): CallEnv {
  if (env.call === null) throw new Error("a resume step used the call env before the buildCallEnv step built it");
  return env.call;
}

/**
 * Runs the steps in order until one returns an outcome, then the exits the steps added, last first,
 * as nested `finally` blocks would: each sees the outcome or the error so far, and may replace it.
 */
export async function runSteps(steps: readonly ResumeStep[], env: ResumeEnv): Promise<ResumeOutcome> {
  let ending: ResumeEnding;
  try {
    ending = { outcome: await firstOutcome(steps, env) };
  } catch (error) {
    ending = { error };
  }
  for (const exit of [...env.exits].reverse()) {
    try {
      ending = await exit(ending);
    } catch (error) {
      ending = { error };
    }
  }
  if ("error" in ending) throw ending.error;
  return ending.outcome;
}

async function firstOutcome(steps: readonly ResumeStep[], env: ResumeEnv): Promise<ResumeOutcome> {
  for (const step of steps) {
    const outcome = await step.run(env);
    if (outcome) return outcome;
  }
  throw new Error(`the resume's steps ran out without an outcome (the last one, ${steps.at(-1)?.name ?? "none"}, must return one)`);
}

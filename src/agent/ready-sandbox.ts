import { readyShell } from "../runs/sandbox-run.js";
import { runContextOf } from "../tools/support/run-context.js";
import { configuredTestCommand, testShell } from "../tools/run-tests.js";
import type { CallEnv } from "./call-env.js";
import { walkSessionToolchainsAhead } from "./session-sandbox.js";

/**
 * Readies the session's sandbox beside the loop, at the start of a resume, so that the resume's first
 * run does not wait for what could be done while the model is asked: in execute mode, the sandbox
 * of the test command is laid out and started (a baseline that runs does this itself); in plan mode,
 * where tests do not run, only the toolchains' credential walks start, for the runs to come.
 * Nothing waits for it and nothing is run: a run that comes first shares the same start
 * (bubblewrap-session.ts), and one that fails to start is met again, and reported, by the run.
 */
export function readySandbox(env: CallEnv, baselineRunning: boolean): void {
  const ctx = env.context();
  const command = configuredTestCommand(ctx);
  if (ctx.sandbox === null || command === undefined) return;
  if (ctx.state.mode !== "execute") return walkSessionToolchainsAhead(ctx.state.toolchains, env.toolchainWalks);
  if (!baselineRunning) void readyShell(runContextOf(ctx), testShell(ctx, command));
}

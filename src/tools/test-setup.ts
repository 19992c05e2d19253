import { access, writeFile } from "node:fs/promises";
import path from "node:path";
import { summarizeTestRun } from "../sandbox/index.js";
import type { SessionEvent } from "../session/events.js";
import type { ToolError } from "../session/types.js";
import { runShell } from "./sandbox-run.js";
import type { ToolContext } from "./tool.js";

/**
 * The repository's setup command (e.g. `npm ci`) runs once per workspace, before the first test run.
 * It is the only step that may get network access, and only when the repo config says so. A marker
 * inside `.git` (never part of the tree hash, never writable by the agent's file tools) records that
 * it succeeded; a failed setup leaves no marker, so the next run_tests tries again.
 */
export const SETUP_MARKER = path.join(".git", "patchgate-setup-done");

export type SetupOutcome =
  | { ran: false }
  | { ran: true; event: Extract<SessionEvent, { type: "setup_run" }>; error: ToolError | null };

const WITHHELD = "the network is only given to a setup that runs before anything has changed the workspace.";

/**
 * Setup runs files of the workspace (package.json scripts, a Makefile) with the host's network. Once
 * a write or command of the agent has run, those files may be the agent's own code, which could then
 * send the repository anywhere; so the network is given only while nothing has (latestDiff is set by
 * every successful workspace-changing tool). The loop runs a networked setup before the first call of
 * the execute phase for exactly this reason.
 */
export function setupMayUseNetwork(ctx: ToolContext): boolean {
  return ctx.state.latestDiff === null;
}

export async function ensureSetup(ctx: ToolContext): Promise<SetupOutcome> {
  const command = ctx.repoConfig.setup;
  if (command === undefined) return { ran: false };
  const marker = path.join(ctx.workspace.root, SETUP_MARKER);
  if (await access(marker).then(() => true, () => false)) return { ran: false };

  const wanted = ctx.repoConfig.sandbox.network_for_setup;
  const network = wanted && setupMayUseNetwork(ctx);
  const res = await runShell(ctx, { command, timeoutSeconds: ctx.repoConfig.timeouts.setup_seconds, network });
  const summary = summarizeTestRun(res.stdout, res.stderr, res.exitCode);
  const event = { type: "setup_run" as const, command, exitCode: res.exitCode, durationMs: res.durationMs, network, summary };
  if (res.exitCode === 0 && !res.timedOut) {
    await writeFile(marker, `${command}\n`);
    return { ran: true, event, error: null };
  }
  const why = res.timedOut ? `timed out after ${ctx.repoConfig.timeouts.setup_seconds}s` : `exited with ${res.exitCode ?? res.signal}`;
  return {
    ran: true,
    event,
    error: {
      code: "setup_failed",
      message:
        `The repository's setup command \`${command}\` ${why}, so the tests were not run.` +
        (network ? "" : wanted ? ` It ran without network access: ${WITHHELD}` : " It ran without network access (sandbox.network_for_setup is false).") +
        `\n${summary}`,
      details: { command, exit_code: res.exitCode, timed_out: res.timedOut, network },
    },
  };
}

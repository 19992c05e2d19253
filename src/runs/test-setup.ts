import { access, rm, writeFile } from "node:fs/promises";
import { retryHint } from "../session/retry-hint.js";
import path from "node:path";
import { REPO_CONFIG_PATH } from "../config/repo-config.js";
import { summarizeTestRun } from "../sandbox/test-summary.js";
import type { SessionEvent } from "../session/events.js";
import type { SetupRecord, SetupWithheld, ToolError } from "../session/types.js";
import { withheldText } from "../session/setup-withheld.js";
import { compareSetupInputs } from "../workspace/setup-inputs.js";
import { setupInputDigest } from "../workspace/setup-digest.js";
import { withDependencyCache } from "./cached-setup.js";
import type { SetupContext } from "./run-context.js";
import { runShell } from "./sandbox-run.js";
import { runKillOf } from "./run-kill.js";
import { refusedHostsIn } from "../sandbox/egress/egress-run.js";
import { killText } from "../session/run-kill-text.js";

/**
 * The repository's setup command (e.g. `npm ci`) runs at the start of execute mode and is memoised
 * in the ledger (`setup_run` with the digest of its inputs, workspace/setup-digest.ts): it runs
 * again only when its inputs changed (the agent fixed a lockfile), when a human asked
 * (`setup_retry_requested`, from `/agent retry`), or, after a pass, when the workspace no longer
 * holds its output (rebuilt elsewhere). A failure is not re-run on every resume or test run: the
 * recorded one is answered. It is the only step that may get network access, and only when the repo
 * config says so. A marker inside `.git` (never part of the tree hash, never writable by the agent's
 * file tools) records that this workspace holds a successful setup's output.
 */
export const SETUP_MARKER = path.join(".git", "patchgate-setup-done");

export type SetupOutcome =
  /** Nothing ran: no setup, or the recorded one stands (`error` when it failed). */
  { ran: false; error: ToolError | null } | { ran: true; event: Extract<SessionEvent, { type: "setup_run" }>; error: ToolError | null };

/**
 * Setup runs files of the workspace (package.json scripts, a Makefile, setup.sh) with the host's
 * network, so it gets the network only on a tree that is the maintainer's in what setup runs:
 * - nothing of the session has changed the workspace yet (latestDiff is set by every successful
 *   workspace-changing tool; the loop runs a networked setup before the first call of the execute
 *   phase for exactly this reason);
 * - the tree's setup inputs (policy/setup-inputs.ts) are the default branch's. A follow-up session on
 *   a PR branch starts on a tree an earlier session (or anyone with push access to the branch) wrote:
 *   if that changed setup.sh or a lockfile, the setup runs offline.
 */
function setupMayUseNetwork(ctx: SetupContext): boolean {
  return ctx.state.latestDiff === null;
}

type NetworkVerdict = { network: boolean; withheld?: SetupWithheld };

async function setupNetwork(ctx: SetupContext, command: string): Promise<NetworkVerdict> {
  if (!ctx.setupConfig.network) return { network: false };
  if (!setupMayUseNetwork(ctx)) return { network: false, withheld: { reason: "workspace_changed" } };
  const inputs = await compareSetupInputs(ctx.workspace.root, ctx.workspace.baseCommit, command, ctx.signal);
  if (inputs.kind === "unknown") return { network: false, withheld: { reason: "default_branch_unknown" } };
  if (inputs.kind === "changed") return { network: false, withheld: { reason: "setup_inputs_changed", paths: inputs.paths } };
  return { network: true };
}

/** Why an offline setup was offline when the repository chose it, and what to change. */
const OPTED_OUT = `sandbox.network_for_setup is false in ${REPO_CONFIG_PATH} (set it to true, the default, to let setup reach the package registries)`;

function refusedNote(hosts: readonly string[]): string {
  if (hosts.length === 0) return "";
  return ` The egress proxy refused ${hosts.join(", ")}: add it to sandbox.allow_hosts in ${REPO_CONFIG_PATH} if the setup needs it (the package registries are allowed already).`;
}

function offlineNote(v: NetworkVerdict): string {
  if (v.network) return "";
  return v.withheld ? ` It ran without network access: ${withheldText(v.withheld)}.` : ` It ran without network access: ${OPTED_OUT}.`;
}

export async function ensureSetup(ctx: SetupContext): Promise<SetupOutcome> {
  const command = ctx.setupConfig.command;
  if (command === undefined) return { ran: false, error: null };
  const marker = path.join(ctx.workspace.root, SETUP_MARKER);
  const inputDigest = await setupInputDigest(ctx.workspace.root, command, ctx.publishable, ctx.signal);
  const last = ctx.state.setup;
  if (last !== null && last.command === command && last.inputDigest === inputDigest) {
    if (!last.passed) return { ran: false, error: recordedFailure(last, ctx.state) };
    if (
      await access(marker).then(
        () => true,
        () => false,
      )
    )
      return { ran: false, error: null };
  }

  const verdict = await setupNetwork(ctx, command);
  const { network, withheld } = verdict;
  const run = () => runShell(ctx, { kind: "setup", command, timeoutSeconds: ctx.setupConfig.timeoutSeconds, network });
  const { res, dependencyCache } = await withDependencyCache(ctx, command, network, run);
  const killed = runKillOf(res, ctx.signal?.aborted === true);
  const refusedHosts = network ? refusedHostsIn(res.stderr) : [];
  const summary = summarizeTestRun(res.stdout, res.stderr, res.exitCode, undefined, killed);
  const event = {
    type: "setup_run" as const,
    command,
    exitCode: res.exitCode,
    durationMs: res.durationMs,
    network,
    summary,
    ...(withheld ? { withheld } : {}),
    inputDigest,
    ...(res.timedOut ? { timedOut: true } : {}),
    ...(killed ? { killed } : {}),
    ...(refusedHosts.length > 0 ? { refusedHosts } : {}),
    ...(dependencyCache ? { dependencyCache } : {}),
  };
  if (res.exitCode === 0 && !res.timedOut) {
    await writeFile(marker, `${command}\n${inputDigest}\n`);
    return { ran: true, event, error: null };
  }
  await rm(marker, { force: true });
  const why = killed ? `was ${killText(killed, `timeouts.setup_seconds, ${ctx.setupConfig.timeoutSeconds} s`)}` : `exited with ${res.exitCode}`;
  return {
    ran: true,
    event,
    error: {
      code: "setup_failed",
      message: `The repository's setup command \`${command}\` ${why}, so the tests were not run.${offlineNote(verdict)}${refusedNote(refusedHosts)}\n${summary}`,
      details: { command, exit_code: res.exitCode, timed_out: res.timedOut, network, ...(withheld ? { withheld } : {}) },
    },
  };
}

/** Said to the model after a failed setup; the retry named is the one that exists where the session runs. */
export const notRerun = (s: Parameters<typeof retryHint>[0]): string =>
  `It is not run again until its inputs (manifests, lockfiles, the files it names) change, or ${retryHint(s)}.`;

function recordedFailure(last: SetupRecord, s: Parameters<typeof retryHint>[0]): ToolError {
  return {
    code: "setup_failed",
    message: `The repository's setup command \`${last.command}\` ${setupOutcomeText(last)}, so the tests cannot run. ${notRerun(s)}\n${last.summary}`,
    details: { command: last.command, exit_code: last.exitCode, recorded: true },
  };
}

/** "passed in 12 s" / "failed (exit 1) after 3.2 s": for the model and the tool result. */
export function setupOutcomeText(s: Pick<SetupRecord, "passed" | "exitCode" | "durationMs" | "killed">): string {
  const secs = s.durationMs >= 10_000 ? `${Math.round(s.durationMs / 1000)} s` : `${(s.durationMs / 1000).toFixed(1)} s`;
  if (s.passed) return `passed in ${secs}`;
  if (s.killed) return `failed (${killText(s.killed, "timeouts.setup_seconds")}) after ${secs}`;
  return s.exitCode === null ? `failed (timed out or killed) after ${secs}` : `failed (exit ${s.exitCode}) after ${secs}`;
}

import type { RepoConfig } from "../config/repo-config.js";
import { READ_ONLY_GIT_ENV, readOnlyArgv } from "../policy/shell/read-only-git-run.js";
import type { SandboxLimits, SandboxResult, SandboxRunRequest } from "../sandbox/types.js";
import type { RunContext } from "./run-context.js";
import type { RunKind, RunStarted } from "./run-progress.js";

/**
 * How a session uses the sandbox: the model's commands as the argv the policy judged, the
 * maintainer's test and setup lines through `/bin/sh -c`, always with the repository's limits, and
 * never without a sandbox: a RunContext holds one, so with no backend nothing gets this far.
 */

export interface ShellRun {
  kind: RunKind;
  command: string;
  timeoutSeconds: number;
  network?: boolean;
  /** The repository's setup step: the one run that writes the session's cache and HOME. */
  setup?: boolean;
  /** Hosts a human granted the session (tests): the run reaches these alone, through the egress proxy. */
  grantedHosts?: readonly string[];
}

export interface ArgvRun {
  argv: string[];
  timeoutSeconds: number;
  /** The workspace is mounted read-only (the policy allowed the command as a reader). */
  readOnly: boolean;
  /** A human approved this command: it keeps what it writes where git ignores (its other changes are kept by guardedRun). */
  humanApproved?: boolean;
  /** Hosts a human granted the session: the run reaches these alone, through the egress proxy. */
  grantedHosts?: readonly string[];
}

/** The repository's per-run limits (its config's sandbox.*) in the sandbox's units. */
export function limitsOf(config: RepoConfig): SandboxLimits {
  return {
    maxOutputBytes: config.sandbox.max_output_kb * 1024,
    maxProcesses: config.sandbox.max_processes,
    memoryBytes: config.sandbox.memory_mb * 1024 * 1024,
    diskBytes: config.sandbox.disk_mb * 1024 * 1024,
    cpuSeconds: config.sandbox.cpu_seconds,
  };
}

/** A run's result plus the special files it left behind, which were deleted after it. */
export type RunResult = SandboxResult & { removedSpecial: string[] };

type RunMode = {
  network?: boolean;
  readOnlyWorkspace?: boolean;
  setup?: boolean;
  /** A command a human approved: keeps what it writes where git ignores, as setup does. */
  keepsIgnored?: boolean;
  env?: Readonly<Record<string, string>>;
  granted?: readonly string[];
};

/** A run as the sandbox takes it: argv, and what its mode allows. */
interface Planned {
  argv: string[];
  timeoutSeconds: number;
  started: RunStarted;
  mode: RunMode;
}

function shellPlan(run: ShellRun): Planned {
  const started = { kind: run.kind, command: run.command, network: run.network ?? false };
  const mode = { network: run.network ?? false, setup: run.kind === "setup", granted: run.grantedHosts };
  return { argv: ["/bin/sh", "-c", run.command], timeoutSeconds: run.timeoutSeconds, started, mode };
}

/**
 * Argv without a shell: as it is, or, for a command allowed as a reader, read-only and, when it
 * is git, with the settings that switch off every program git could take from configuration.
 */
function argvPlan(run: ArgvRun): Planned {
  const started = { kind: "command" as const, command: run.argv.join(" "), network: false };
  if (!run.readOnly)
    return { argv: run.argv, timeoutSeconds: run.timeoutSeconds, started, mode: { granted: run.grantedHosts, keepsIgnored: run.humanApproved === true } };
  return { argv: readOnlyArgv(run.argv), timeoutSeconds: run.timeoutSeconds, started, mode: { readOnlyWorkspace: true, env: READ_ONLY_GIT_ENV } };
}

/** Runs one of the maintainer's shell lines in the sandbox. */
export function runShell(ctx: RunContext, run: ShellRun): Promise<RunResult> {
  return runSandboxed(ctx, shellPlan(run));
}

/** Runs argv without a shell (see argvPlan). */
export function runArgv(ctx: RunContext, run: ArgvRun): Promise<RunResult> {
  return runSandboxed(ctx, argvPlan(run));
}

/**
 * Readies the sandbox for `runShell(ctx, run)` (see Sandbox.prepare) and resolves when it is ready,
 * never rejecting: the run meets whatever went wrong and reports it. The caller snapshots the tree
 * meanwhile; the run itself starts only after both.
 */
export function readyShell(ctx: RunContext, run: ShellRun): Promise<void> {
  return ready(ctx, shellPlan(run));
}

/** The same for `runArgv(ctx, run)`. */
export function readyArgv(ctx: RunContext, run: ArgvRun): Promise<void> {
  return ready(ctx, argvPlan(run));
}

// Never rejects: a readying nobody awaits must not end the process, and its run meets any failure again.
async function ready(ctx: RunContext, plan: Planned): Promise<void> {
  try {
    await ctx.sandbox.prepare?.(request(ctx, plan));
  } catch {
    // the run reports it
  }
}

/** One classifier per workspace, so a run's readying and the run itself carry the same request. */
const classifiers = new WeakMap<RunContext["workspace"], (rels: readonly string[]) => Promise<Set<string>>>();
function ignoredIn(workspace: RunContext["workspace"]): (rels: readonly string[]) => Promise<Set<string>> {
  let classify = classifiers.get(workspace);
  if (classify === undefined) classifiers.set(workspace, (classify = (rels) => workspace.ignoredAmong(rels)));
  return classify;
}

function request(ctx: RunContext, { argv, timeoutSeconds, mode }: Planned): SandboxRunRequest {
  // The setup's network reaches the registries and allow_hosts; any other run, only what a human granted.
  const granted = !mode.network && mode.granted !== undefined && mode.granted.length > 0 ? mode.granted : null;
  const network =
    mode.network === true
      ? { network: true, allowHosts: ctx.allowHosts }
      : granted
        ? { network: true, allowHosts: granted, packageRegistries: false }
        : { network: false };
  return {
    argv,
    ...(mode.env === undefined ? {} : { env: { ...mode.env } }),
    workspace: ctx.workspace.root,
    ...network,
    readOnlyWorkspace: mode.readOnlyWorkspace === true,
    setup: mode.setup === true,
    // Named where kept, never where discarded: a run of a kind added later discards by default.
    ...(mode.setup === true || mode.keepsIgnored === true ? {} : { discardIgnored: ignoredIn(ctx.workspace) }),
    timeoutMs: timeoutSeconds * 1000,
    limits: ctx.limits,
    signal: ctx.signal,
    onOutput: ctx.onOutput,
  };
}

/**
 * A run may leave FIFOs, sockets or devices in the workspace: they are deleted at once (none can be
 * published, and one named .gitignore would stall every git call), and the result names them.
 */
async function runSandboxed(ctx: RunContext, plan: Planned): Promise<RunResult> {
  const ended = ctx.onRun?.(plan.started);
  const res = await ctx.sandbox.run(request(ctx, plan)).finally(() => ended?.());
  const removed = await ctx.workspace.removeSpecialFiles();
  return { ...res, removedSpecial: [...(res.droppedSpecial ?? []), ...removed.map((s) => `${s.rel} (a ${s.kind})`)] };
}

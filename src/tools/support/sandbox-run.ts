import type { RepoConfig } from "../../config/repo-config.js";
import { READ_ONLY_GIT_ENV, readOnlyArgv } from "../../policy/shell/read-only-git-run.js";
import type { SandboxResult } from "../../sandbox/types.js";
import type { ToolError } from "../../session/types.js";
import { capChars } from "./text.js";
import type { ToolContext } from "../tool.js";
import type { RunKind, RunStarted } from "./run-progress.js";

/**
 * How the command tools use the sandbox: the model's commands as the argv the policy judged, the
 * maintainer's test and setup lines through `/bin/sh -c`, always with the repository's limits, and
 * never without a sandbox: with no backend the command is refused, not run bare.
 */

/** Per stream, what the model gets back; the sandbox's own cap (repo config) is larger. */
const MODEL_OUTPUT_CHARS = 16 * 1024;

export function sandboxUnavailable(): ToolError {
  return {
    code: "sandbox_unavailable",
    message:
      "No sandbox is available on this host, so commands cannot run (they are never run outside a sandbox). " +
      "Continue with the file tools; a maintainer has to enable bubblewrap or docker for commands and tests.",
  };
}

export interface ShellRun {
  kind: RunKind;
  command: string;
  timeoutSeconds: number;
  network?: boolean;
  /** The repository's setup step: the one run that writes the session's cache and HOME. */
  setup?: boolean;
}

export interface ArgvRun {
  argv: string[];
  timeoutSeconds: number;
  /** The workspace is mounted read-only (the policy allowed the command as a reader). */
  readOnly: boolean;
}

export function limitsOf(config: RepoConfig) {
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

/** Runs one of the maintainer's shell lines in the sandbox; the caller has checked that a sandbox exists. */
export function runShell(ctx: ToolContext, run: ShellRun): Promise<RunResult> {
  const started = { kind: run.kind, command: run.command, network: run.network ?? false };
  const mode = { network: run.network ?? false, setup: run.kind === "setup" };
  return runSandboxed(ctx, ["/bin/sh", "-c", run.command], run.timeoutSeconds, started, mode);
}

/**
 * Runs argv without a shell: as it is, or, for a command allowed as a reader, read-only and, when it
 * is git, with the settings that switch off every program git could take from configuration.
 */
export function runArgv(ctx: ToolContext, run: ArgvRun): Promise<RunResult> {
  const started = { kind: "command" as const, command: run.argv.join(" "), network: false };
  if (!run.readOnly) return runSandboxed(ctx, run.argv, run.timeoutSeconds, started, {});
  return runSandboxed(ctx, readOnlyArgv(run.argv), run.timeoutSeconds, started, { readOnlyWorkspace: true, env: READ_ONLY_GIT_ENV });
}

/**
 * A run may leave FIFOs, sockets or devices in the workspace: they are deleted at once (none can be
 * published, and one named .gitignore would stall every git call), and the result names them.
 */
async function runSandboxed(
  ctx: ToolContext,
  argv: string[],
  timeoutSeconds: number,
  started: RunStarted,
  mode: { network?: boolean; readOnlyWorkspace?: boolean; setup?: boolean; env?: Readonly<Record<string, string>> },
): Promise<RunResult> {
  if (ctx.sandbox === null) throw new Error("a sandboxed run without a sandbox");
  const ended = ctx.onRun?.(started);
  const res = await ctx.sandbox
    .run({
      argv,
      ...(mode.env === undefined ? {} : { env: { ...mode.env } }),
      workspace: ctx.workspace.root,
      network: mode.network === true,
      ...(mode.network === true ? { allowHosts: ctx.repoConfig.sandbox.allow_hosts } : {}),
      readOnlyWorkspace: mode.readOnlyWorkspace === true,
      setup: mode.setup === true,
      timeoutMs: timeoutSeconds * 1000,
      limits: limitsOf(ctx.repoConfig),
      signal: ctx.signal,
      onOutput: ctx.onOutput,
    })
    .finally(() => ended?.());
  const removed = await ctx.workspace.removeSpecialFiles();
  return { ...res, removedSpecial: [...(res.droppedSpecial ?? []), ...removed.map((s) => `${s.rel} (a ${s.kind})`)] };
}

/** For a result the model reads: the special files the run left, which it must not rely on. */
export function removedFields(res: RunResult): { removed_special_files?: { paths: string[]; why: string } } {
  if (res.removedSpecial.length === 0) return {};
  return {
    removed_special_files: {
      paths: res.removedSpecial,
      why: "the run left special files; they were deleted: they cannot be committed, and git would stall on one named .gitignore",
    },
  };
}

/** stdout/stderr cut to what a model can use: head and tail kept. */
export function modelOutput(res: SandboxResult): { stdout: string; stderr: string; truncated: boolean } {
  const out = capChars(res.stdout, MODEL_OUTPUT_CHARS);
  const err = capChars(res.stderr, MODEL_OUTPUT_CHARS);
  return { stdout: out.text, stderr: err.text, truncated: res.truncated || out.truncated || err.truncated };
}

const LIMIT_TEXT: Record<NonNullable<SandboxResult["limitExceeded"]>, string> = {
  cpu: "killed by the CPU-time limit (sandbox.cpu_seconds per process)",
  disk: "the run tried to write more than sandbox.disk_mb allows (see stderr); none of its writes were kept",
  file_size: "a file reached the size limit (sandbox.disk_mb)",
};

/** For a result the model reads: which limit ended the run, in words, when one did. */
export function limitFields(res: SandboxResult): { limit_exceeded?: string } {
  return res.limitExceeded ? { limit_exceeded: `${res.limitExceeded}: ${LIMIT_TEXT[res.limitExceeded]}` } : {};
}

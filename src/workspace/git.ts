import { runProcess } from "../process/index.js";
import { gitEnv, HARDENING_CONFIG, refuseUnsafe, unsafeOptIns } from "./git-hardening.js";
import type { GitAuth } from "./types.js";
import { withDeadline } from "./deadline.js";
import { WorkspaceError } from "./workspace-error.js";

/** A git exit code is data (STYLE 6): callers decide whether non-zero is an error. */
export interface GitResult {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** stdout as bytes, for what is not text (a blob's content). */
  stdoutBytes?: Buffer;
}

export interface GitCallOptions {
  cwd: string;
  /** Extra variables, e.g. GIT_INDEX_FILE for a throwaway index, or author identity. */
  env?: Record<string, string>;
  auth?: GitAuth;
  signal?: AbortSignal;
  /** Written to stdin (commit messages, patches). */
  input?: string;
  /** Default: GIT_LOCAL_TIMEOUT_MS, or GIT_NETWORK_TIMEOUT_MS for clone/fetch/push. */
  timeoutMs?: number;
}

/**
 * No git call runs unbounded: a local one that takes a minute is stuck (a FIFO where git expects a
 * file, a lock held by a dead process), and a clone, fetch or push gets five.
 */
export const GIT_LOCAL_TIMEOUT_MS = 60_000;
export const GIT_NETWORK_TIMEOUT_MS = 300_000;
const NETWORK_COMMANDS = new Set(["clone", "fetch", "push", "ls-remote"]);

function timeoutOf(args: string[], opts: GitCallOptions): number {
  return opts.timeoutMs ?? (NETWORK_COMMANDS.has(args[0]) ? GIT_NETWORK_TIMEOUT_MS : GIT_LOCAL_TIMEOUT_MS);
}

/**
 * Runs git with the hardening config and a minimal environment (git-hardening.ts), started by the
 * spawn helper like every process. Resolves with the exit code; rejects only if git cannot run (the
 * guard refused the call, the spawn failed, the helper was lost), is aborted, or outlives its time
 * limit (a WorkspaceError `timeout`).
 */
export async function git(args: string[], opts: GitCallOptions): Promise<GitResult> {
  return withDeadline(`git ${args[0]}`, timeoutOf(args, opts), opts.signal, (signal) => gitUntil(args, { ...opts, signal }));
}

async function gitUntil(args: string[], opts: GitCallOptions & { signal: AbortSignal }): Promise<GitResult> {
  // git then refuses abbreviations (`--upl` for `--upload-pack`), which the guard could not recognise.
  const env = { ...gitEnv(opts.env, opts.auth), GIT_TEST_DISALLOW_ABBREVIATED_OPTIONS: "true" };
  const argv = [...HARDENING_CONFIG.flatMap((c) => ["-c", c]), ...args];
  refuseUnsafe(argv, env, unsafeOptIns(opts.auth !== undefined));
  // SIGINT on abort, as git's own Ctrl-C: it removes its lock files before it goes.
  const r = await runProcess({ command: "git", args: argv, env, cwd: opts.cwd, input: opts.input ?? "", signal: opts.signal, killSignal: "SIGINT" });
  return {
    exitCode: r.exitCode, // null when git was killed by a signal
    stdout: r.stdout.toString("utf8"),
    stdoutBytes: r.stdout,
    stderr: r.stderr.toString("utf8"),
  };
}

/** For steps that must succeed: returns stdout, or throws a fatal WorkspaceError naming the command. */
export async function gitOk(args: string[], opts: GitCallOptions): Promise<string> {
  const r = await git(args, opts);
  if (r.exitCode !== 0) {
    throw new WorkspaceError("git_failed", `git ${args[0]} failed (exit ${r.exitCode}): ${r.stderr.trim()}`, r.stderr);
  }
  return r.stdout;
}

import { GitPluginError, simpleGit } from "simple-git";
import { gitEnv, HARDENING_CONFIG, unsafeOptIns } from "./git-hardening.js";
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

type Outcome = { exitCode: number | null; stdOut: Buffer[]; stdErr: Buffer[] };

/**
 * Runs git through simple-git with the hardening config and a minimal environment (git-hardening.ts).
 * Resolves with the exit code; rejects only if git cannot run (simple-git's guard refused the call,
 * or the spawn failed), is aborted, or outlives its time limit (a WorkspaceError `timeout`).
 *
 * One simple-git instance per call: cwd, env, signal and stdin differ per call, and the instance's
 * `errors` hook is the one place simple-git hands over the exit code, which `raw()` does not return.
 */
export async function git(args: string[], opts: GitCallOptions): Promise<GitResult> {
  return withDeadline(`git ${args[0]}`, timeoutOf(args, opts), opts.signal, (signal) => gitUntil(args, { ...opts, signal }));
}

async function gitUntil(args: string[], opts: GitCallOptions & { signal: AbortSignal }): Promise<GitResult> {
  const env = gitEnv(opts.env, opts.auth);
  let outcome: Outcome | undefined;
  const sg = simpleGit({
    baseDir: opts.cwd,
    config: HARDENING_CONFIG,
    unsafe: unsafeOptIns(opts.auth !== undefined),
    // simple-git strips or refuses GIT_* variables not named here; these are exactly the ones we set.
    allowEnvironment: Object.keys(env),
    abort: opts.signal,
    // Done only on 'close', when git has exited and its output pipes are drained, as the old spawn
    // wrapper did; simple-git's default also ends 50 ms after 'exit', which can cut output short.
    completion: { onClose: true, onExit: false },
    // Always end stdin, as before: a zero-length Buffer is still written (and closes the pipe), while
    // an empty string would leave it open and a command reading stdin would wait for ever.
    input: () => Buffer.from(opts.input ?? "", "utf8"),
    errors: (error, result) => {
      outcome = result;
      // A refusal by simple-git's guards, an abort, or a spawn failure (negative exit code): git did
      // not run to completion, so there is no exit code to report. Anything else is data.
      if (error instanceof GitPluginError || opts.signal?.aborted || result.exitCode < 0) return error;
      return undefined;
    },
  })
    .env(env)
    // simple-git adds a 50 ms grace period after 'close' when a command printed nothing (read-tree,
    // add, update-index…: three per treeHash, ~4x slower). With completion on 'close' only, every
    // byte is in by then, so an empty chunk at end of stdout marks the output done. If a future
    // simple-git ignores it, only the delay comes back; the output and exit code are unaffected.
    .outputHandler((_command, stdout) => stdout.once("end", () => stdout.emit("data", Buffer.alloc(0))));
  await untilAborted(sg.raw(args), opts.signal);
  if (!outcome) throw new Error(`git ${args[0]}: simple-git reported no outcome`);
  return {
    exitCode: outcome.exitCode, // null when git was killed by a signal (simple-git passes it through)
    stdout: Buffer.concat(outcome.stdOut).toString("utf8"),
    stdoutBytes: Buffer.concat(outcome.stdOut),
    stderr: Buffer.concat(outcome.stdErr).toString("utf8"),
  };
}

/**
 * simple-git kills git on abort but settles only once git's pipes close, which a child git started
 * (a hook, a remote helper) can hold open. Reject at once instead, as node's spawn does, with the
 * same AbortError shape so callers can keep testing `name`.
 */
async function untilAborted(run: Promise<unknown>, signal: AbortSignal | undefined): Promise<void> {
  run.catch(() => undefined); // once aborted, nobody awaits the late settlement
  let onAbort = (): void => undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => {
      const error = new Error("The operation was aborted", { cause: signal?.reason });
      reject(Object.assign(error, { name: "AbortError", code: "ABORT_ERR" }));
    };
    if (signal?.aborted) onAbort();
    else signal?.addEventListener("abort", onAbort, { once: true });
  });
  try {
    await Promise.race([run, aborted]);
  } finally {
    signal?.removeEventListener("abort", onAbort);
  }
}

/** For steps that must succeed: returns stdout, or throws a fatal WorkspaceError naming the command. */
export async function gitOk(args: string[], opts: GitCallOptions): Promise<string> {
  const r = await git(args, opts);
  if (r.exitCode !== 0) {
    throw new WorkspaceError("git_failed", `git ${args[0]} failed (exit ${r.exitCode}): ${r.stderr.trim()}`, r.stderr);
  }
  return r.stdout;
}

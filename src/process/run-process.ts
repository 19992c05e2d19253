import { startProcess, type StartOptions } from "./start-process.js";

export interface RunOptions extends Omit<StartOptions, "stdin" | "extraPipes"> {
  /** Written to stdin, which is then closed (always: a command reading stdin never waits for ever). */
  input?: string | Buffer;
  /** Stops the process: it is sent `killSignal`, and SIGKILL if it is still there after KILL_AFTER_MS. */
  signal?: AbortSignal;
  /** Default SIGTERM. */
  killSignal?: NodeJS.Signals;
}

export interface RunResult {
  /** null when a signal ended it. */
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: Buffer;
  stderr: Buffer;
}

const KILL_AFTER_MS = 5_000;

/**
 * Runs a process to its end and collects its output. Resolves with the exit code or signal (a
 * failing command is data); rejects when it cannot start (node's spawn error: ENOENT…), when the
 * helper was lost (ProcessError), or at once on abort, with an AbortError as node's spawn gives.
 */
export function runProcess(options: RunOptions): Promise<RunResult> {
  const { input, signal, killSignal, ...start } = options;
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal));
    const child = startProcess({ ...start, stdin: "pipe" });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (c: Buffer) => out.push(c));
    child.stderr.on("data", (c: Buffer) => err.push(c));
    let failure: Error | null = null;
    let hardKill: NodeJS.Timeout | undefined;
    const onAbort = (): void => {
      child.kill(killSignal ?? "SIGTERM");
      hardKill = setTimeout(() => child.kill("SIGKILL"), KILL_AFTER_MS);
      hardKill.unref();
      reject(abortError(signal));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    child.once("error", (e: Error) => (failure = e));
    child.once("close", (code: number | null, sig: NodeJS.Signals | null) => {
      signal?.removeEventListener("abort", onAbort);
      clearTimeout(hardKill);
      if (failure) reject(failure);
      else resolve({ exitCode: code, signal: sig, stdout: Buffer.concat(out), stderr: Buffer.concat(err) });
    });
    child.stdin?.end(input ?? "");
  });
}

function abortError(signal: AbortSignal | undefined): Error {
  const error = new Error("The operation was aborted", { cause: signal?.reason });
  return Object.assign(error, { name: "AbortError", code: "ABORT_ERR" });
}

import type { SandboxResult } from "../sandbox/types.js";
import type { RunKill } from "../session/types.js";

// What a runtime that ran out of memory says before it dies (node, python, the C library's perror).
const OUT_OF_MEMORY = /heap out of memory|out of memory|Cannot allocate memory|MemoryError|std::bad_alloc/i;
const SIGNAL_NAMES: Record<number, string> = { 6: "SIGABRT", 9: "SIGKILL", 15: "SIGTERM", 24: "SIGXCPU", 25: "SIGXFSZ" };

/**
 * How a run was ended from outside, or null when it ended by itself. The sandbox names the time,
 * disk, CPU and file-size limits; `stopped` is the session's own abort; the memory limit sends no
 * signal of its own (allocations fail, and the runtime aborts or is killed), so it is read from the
 * signal and what the run said last. Exit statuses above 128 are the shells' way of reporting a
 * signal, and are read as one.
 */
export function runKillOf(res: SandboxResult, stopped: boolean): RunKill | null {
  const signal = res.signal ?? (res.exitCode !== null && res.exitCode > 128 ? (SIGNAL_NAMES[res.exitCode - 128] ?? `signal ${res.exitCode - 128}`) : null);
  if (res.timedOut) return { signal: signal ?? "SIGKILL", limit: "time" };
  if (res.limitExceeded) return { signal, limit: res.limitExceeded };
  if (stopped && (signal !== null || res.exitCode === null)) return { signal, limit: "stop" };
  if (signal === null && res.exitCode !== null) return null;
  if ((signal === "SIGABRT" || signal === "SIGKILL") && OUT_OF_MEMORY.test(res.stderr.slice(-4096) + res.stdout.slice(-4096)))
    return { signal, limit: "memory" };
  return { signal, limit: null };
}

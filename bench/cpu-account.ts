/**
 * The CPU time of this process and of everything it starts, exactly: a cpuacct cgroup (cgroup v1)
 * that this process and the spawn helper join, so every process they start is counted in it, also
 * one whose parent died before reaping it (a sandbox's supervisor when its bwrap is killed) and one
 * that a sandbox moves into its own pids cgroup (another hierarchy in v1). Where there is no writable
 * cpuacct hierarchy (cgroup v2 only, not root), there is no account, and the figure says so.
 */
import { mkdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import path from "node:path";

const CPUACCT = "/sys/fs/cgroup/cpuacct";

export interface CpuAccount {
  /** CPU time (ms) of every process in the account since it was opened. */
  usedMs(): number;
  /** Puts the processes back where they were and removes the cgroup. */
  close(): void;
}

/** Opens an account holding `pids` (this process first); null, with the reason, when this machine has none. */
export function openCpuAccount(pids: readonly number[]): CpuAccount | { reason: string } {
  const dir = path.join(CPUACCT, `patchgate-bench-${process.pid}`);
  try {
    mkdirSync(dir);
  } catch (e) {
    return { reason: `no cpuacct cgroup to count in (${(e as Error).message})` };
  }
  const home = pids.map((pid) => ({ pid, from: cpuacctOf(pid) }));
  for (const pid of pids) writeFileSync(path.join(dir, "cgroup.procs"), String(pid));
  const usage = () => Number(readFileSync(path.join(dir, "cpuacct.usage"), "utf8").trim()) / 1e6;
  const start = usage();
  return {
    usedMs: () => usage() - start,
    close: () => {
      for (const { pid, from } of home) {
        try {
          writeFileSync(path.join(CPUACCT, from, "cgroup.procs"), String(pid));
        } catch {
          // The process is gone.
        }
      }
      try {
        rmdirSync(dir);
      } catch {
        // A process started in it still runs; the kernel removes nothing, the next run makes its own.
      }
    },
  };
}

/** The pid's cpuacct cgroup, relative to the hierarchy's root (from /proc/<pid>/cgroup). */
function cpuacctOf(pid: number): string {
  const line = readFileSync(`/proc/${pid}/cgroup`, "utf8")
    .split("\n")
    .find((l) => l.split(":")[1]?.split(",").includes("cpuacct"));
  return line?.split(":")[2] ?? "/";
}

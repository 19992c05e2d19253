import { execFile } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { promisify } from "node:util";

const execFileP = promisify(execFile);

/** The host's processes as /proc tells them, for tests that check what a sandbox left running. */
export interface Proc {
  pid: number;
  ppid: number;
  comm: string;
  /** R, S, D, Z, …: a zombie (Z) has ended and waits to be reaped. */
  state: string;
}

function processes(): Proc[] {
  return readdirSync("/proc")
    .filter((n) => /^\d+$/.test(n))
    .flatMap((n) => {
      try {
        const stat = readFileSync(`/proc/${n}/stat`, "utf8");
        const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
        const [state, ppid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        return [{ pid: Number(n), ppid: Number(ppid), comm, state: state! }];
      } catch {
        return [];
      }
    });
}

export function descendants(root: number): Proc[] {
  const all = processes();
  const found: Proc[] = [];
  const walk = (pid: number): void => {
    for (const p of all.filter((q) => q.ppid === pid)) {
      found.push(p);
      walk(p.pid);
    }
  };
  walk(root);
  return found;
}

/** Waits until none of `pids` is alive (zombies count as gone), for at most 20 s. */
export async function untilGone(pids: number[]): Promise<void> {
  const alive = (): number[] =>
    pids.filter((pid) => {
      try {
        return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
      } catch {
        return false;
      }
    });
  for (let i = 0; i < 1000 && alive().length > 0; i++) await execFileP("sleep", ["0.02"]);
  expect(alive()).toEqual([]);
}

/** The live bwraps under this process with an argument under `path` (a session's sandbox binds its workspace). */
export function bwrapsNaming(path: string): number[] {
  return descendants(process.pid)
    .filter((p) => p.comm === "bwrap" && p.state !== "Z" && cmdline(p.pid).some((a) => a.startsWith(path)))
    .map((p) => p.pid);
}

/** The spawn helper this process started (src/process/helper-connection.ts), if it runs: the one node child with its heap cap. */
export function spawnHelpers(): number[] {
  return descendants(process.pid)
    .filter((p) => p.ppid === process.pid && p.state !== "Z" && cmdline(p.pid).includes("--max-old-space-size=128"))
    .map((p) => p.pid);
}

function cmdline(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
  } catch {
    return [];
  }
}

/** What `probe` finds once it has found nothing, or `ms` have passed: processes that end a moment after their parent. */
export async function leftAfter(ms: number, probe: () => number[]): Promise<number[]> {
  for (const until = Date.now() + ms; probe().length > 0 && Date.now() < until;) await new Promise((r) => setTimeout(r, 50));
  return probe();
}

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

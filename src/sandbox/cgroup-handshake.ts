import type { Readable, Writable } from "node:stream";
import type { PidsCgroup } from "./pids-cgroup.js";

/** What the handshake needs of the started bwrap (src/process's StartedProcess, or node's ChildProcess). */
export interface HandshakeProcess {
  pid?: number;
  stdio: readonly unknown[];
}

/** The extra stdio slots bwrap gets for the handshake (after stdin, stdout, stderr). */
export const HANDSHAKE_FDS = { info: 3, block: 4 } as const;

/**
 * Puts a bubblewrap sandbox into its pids cgroup before anything inside it can fork. Moving a process
 * is slow on cgroup v1 (it waits for an RCU grace period, ~5 ms), so it starts at once, on bwrap
 * itself, while bwrap is still starting: a clone that comes during or after the move is born inside,
 * as everything it forks. bwrap reports its child's pid on the info fd and then waits, fully set up,
 * on the block fd; if the clone beat the move, the child is moved too. Only then is it released.
 * On failure the child is killed, never released.
 */
export async function joinCgroupThenRelease(child: HandshakeProcess, cgroup: PidsCgroup): Promise<void> {
  const info = child.stdio[HANDSHAKE_FDS.info] as Readable;
  const block = child.stdio[HANDSHAKE_FDS.block] as Writable;
  // An EPIPE when bwrap died early is reported through the exit status, not as a crash here.
  block.on("error", () => undefined);
  const early = child.pid === undefined ? Promise.resolve() : cgroup.adopt(child.pid);
  const pid = await readChildPid(info);
  try {
    await early;
    // bwrap exited during setup (no namespaces, bad mount): its exit status and stderr are the result.
    if (pid === null) return;
    if (!(await cgroup.has(pid))) await cgroup.adopt(pid);
  } catch (e) {
    if (pid === null && (e as NodeJS.ErrnoException).code === "ESRCH") return;
    if (pid !== null) killQuietly(pid);
    throw e;
  }
  block.end("1");
}

// The info fd carries a small JSON object; the pid is complete once a delimiter follows it.
function readChildPid(info: Readable): Promise<number | null> {
  return new Promise((resolve) => {
    let text = "";
    const onData = (chunk: Buffer): void => {
      text += chunk.toString("utf8");
      const m = /"child-pid":\s*(\d+)\s*[,}\n]/.exec(text);
      if (!m) return;
      done();
      info.resume();
      resolve(Number(m[1]));
    };
    const onEnd = (): void => {
      done();
      resolve(null);
    };
    const done = (): void => {
      info.off("data", onData);
      info.off("end", onEnd);
    };
    info.on("data", onData);
    info.on("end", onEnd);
  });
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}

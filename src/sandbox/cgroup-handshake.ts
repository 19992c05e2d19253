import type { ChildProcess } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import type { PidsCgroup } from "./pids-cgroup.js";

/** The extra stdio slots bwrap gets for the handshake (after stdin, stdout, stderr). */
export const HANDSHAKE_FDS = { info: 3, block: 4 } as const;

/**
 * Puts a bubblewrap sandbox into its pids cgroup before anything inside it can fork. bwrap reports
 * its child's pid on the info fd, finishes setting up the namespaces and mounts, then waits on the
 * block fd; the move into the cgroup (a slow operation on cgroup v1: it waits for an RCU grace
 * period) overlaps with that setup, and only then is the sandbox released. Everything the command
 * starts descends from that child, so it is all counted. On failure the child is killed, never released.
 */
export async function joinCgroupThenRelease(child: ChildProcess, cgroup: PidsCgroup): Promise<void> {
  const info = child.stdio[HANDSHAKE_FDS.info] as Readable;
  const block = child.stdio[HANDSHAKE_FDS.block] as Writable;
  // An EPIPE when bwrap died early is reported through the exit status, not as a crash here.
  block.on("error", () => undefined);
  const pid = await readChildPid(info);
  try {
    await cgroup.adopt(pid);
  } catch (e) {
    killQuietly(pid);
    throw e;
  }
  block.end("1");
}

// The info fd carries a small JSON object; the pid is complete once a delimiter follows it.
function readChildPid(info: Readable): Promise<number> {
  return new Promise((resolve, reject) => {
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
      reject(new Error(`bwrap ended before reporting its child: ${text.trim() || "(nothing)"}`));
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

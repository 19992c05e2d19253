import { performance } from "node:perf_hooks";
import type { Readable } from "node:stream";
import { ProcessError } from "../process/index.js";
import { startProcess, type StartedProcess } from "../process/index.js";
import { DISK_KILL_GRACE_MS, watchDiskQuota, type DiskQuota } from "./disk-quota.js";
import { outputSink, type HeadTailCapture } from "./output-capture.js";
import { SandboxError } from "./sandbox-error.js";
import type { SandboxResult, SandboxRunRequest } from "./types.js";

const KILL_EXTRA_WAIT_MS = 10_000;

/** One backend process (bwrap or the docker client) to run under the limits both backends share. */
export interface SupervisedCommand {
  command: string;
  args: string[];
  /** Environment of the backend process itself; the sandboxed command's comes from its own argv. */
  hostEnv: Record<string, string>;
  hostCwd?: string;
  timeoutMs: number;
  maxOutputBytes: number;
  signal?: AbortSignal;
  onOutput?: SandboxRunRequest["onOutput"];
  /** Put at the start of stderr, e.g. which env keys were refused. */
  stderrPrefix?: string;
  /** Called on timeout or abort after the process group is killed, for what the group does not cover. */
  killExtra?: () => Promise<void> | void;
  /** Extra pipes after stdin/stdout/stderr (fd 3, 4, …), for a handshake with the started process. */
  extraPipes?: number;
  /** Runs once the process exists; if it fails, the process is killed and run() rejects with spawn_failed. */
  afterSpawn?: (child: StartedProcess) => Promise<void>;
  /** Kills the run once it has used this much disk (see disk-quota.ts). */
  diskQuota?: DiskQuota;
}

/**
 * Spawns detached (its own process group), stdin closed, and resolves when it exits: a non-zero
 * exit, a timeout or an abort is a result. Rejects only when the command cannot be started.
 */
export function supervise(cmd: SupervisedCommand): Promise<SandboxResult> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = startProcess({
      command: cmd.command,
      args: cmd.args,
      detached: true,
      stdin: "ignore",
      extraPipes: cmd.extraPipes,
      env: cmd.hostEnv,
      cwd: cmd.hostCwd,
    });
    // Both are pipes, as requested just above.
    const stdout = capture(child.stdout as Readable, "stdout", cmd);
    const stderr = capture(child.stderr as Readable, "stderr", cmd);
    let timedOut = false;
    let limitExceeded: SandboxResult["limitExceeded"];
    let killed = false;
    let extraKill: Promise<unknown> = Promise.resolve();
    let setupError: Error | null = null;

    const kill = (): void => {
      if (killed || child.pid === undefined) return;
      killed = true;
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // The group is already gone.
      }
      // Bounded: a wedged engine must not turn a timeout into a hang.
      const bound = new Promise((r) => setTimeout(r, KILL_EXTRA_WAIT_MS).unref());
      extraKill = Promise.race([
        Promise.resolve()
          .then(cmd.killExtra)
          .catch(() => undefined),
        bound,
      ]);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, cmd.timeoutMs);
    const onAbort = (): void => kill();
    let closed = false;
    let diskGrace: NodeJS.Timeout | undefined;
    const disk = cmd.diskQuota
      ? watchDiskQuota(cmd.diskQuota, () => {
          // A single file stopped by RLIMIT_FSIZE reaches the quota at the same moment, and the
          // sample counts other writers on the filesystem too: the run gets a moment to end on its
          // own signal, so the precise reason (file_size) is the one reported.
          diskGrace = setTimeout(() => {
            if (killed || closed) return;
            limitExceeded = "disk";
            kill();
          }, DISK_KILL_GRACE_MS);
        })
      : null;

    child.once("spawn", () => {
      cmd.signal?.addEventListener("abort", onAbort, { once: true });
      if (cmd.signal?.aborted) kill();
      // After a timeout or abort the handshake may fail because its process is gone: that is not a setup error.
      cmd.afterSpawn?.(child).catch((e: Error) => {
        if (killed) return;
        setupError = e;
        kill();
      });
    });
    child.once("error", (err) => {
      clearTimeout(timer);
      clearTimeout(diskGrace);
      disk?.stop();
      if (child.pid === undefined) reject(new SandboxError("spawn_failed", `cannot start ${cmd.command}: ${err.message}`));
      // The spawn helper died: nobody can tell how the run ended, so it is no result.
      else if (ProcessError.isInstance(err)) reject(new SandboxError("backend_lost", `${cmd.command}: ${err.message}`));
    });
    child.once("close", async (code, signal) => {
      closed = true;
      clearTimeout(timer);
      clearTimeout(diskGrace);
      disk?.stop();
      cmd.signal?.removeEventListener("abort", onAbort);
      const durationMs = Math.round(performance.now() - started);
      await extraKill;
      if (setupError) return reject(new SandboxError("spawn_failed", `cannot set up ${cmd.command}: ${setupError.message}`));
      resolve({
        exitCode: code,
        signal,
        stdout: stdout.text(),
        stderr: stderr.text(),
        truncated: stdout.truncated || stderr.truncated,
        timedOut,
        ...(limitExceeded ? { limitExceeded } : {}),
        durationMs,
      });
    });
  });
}

function capture(stream: Readable, name: "stdout" | "stderr", cmd: SupervisedCommand): HeadTailCapture {
  const sink = outputSink(name, cmd);
  stream.on("data", sink.push);
  stream.once("end", sink.end);
  return sink.kept;
}

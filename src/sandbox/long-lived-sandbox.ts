import { randomBytes } from "node:crypto";
import { performance } from "node:perf_hooks";
import type { Readable, Writable } from "node:stream";
import { startProcess, type StartedProcess } from "../process/index.js";
import { bubblewrapSetup, type BwrapHost } from "./bubblewrap-argv.js";
import { HANDSHAKE_FDS, joinCgroupThenRelease } from "./cgroup-handshake.js";
import { closingDescriptors } from "./close-fds.js";
import { DISK_KILL_GRACE_MS, watchDiskQuota, type DiskQuota } from "./disk-quota.js";
import type { BwrapHostSetup } from "./host-layout.js";
import { outputSink, type OutputSinkOptions } from "./output-capture.js";
import { FencedStream } from "./output-fence.js";
import { PidsCgroup } from "./pids-cgroup.js";
import type { PreparedRun } from "./prepare-run.js";
import { SandboxError } from "./sandbox-error.js";
import { CONTROL_FD, SUPERVISOR_PERL, supervisorArgs, type SupervisorSyscalls } from "./supervisor-script.js";
import { encodeRequest, exitCodeOf, parseReport, type SupervisorReport } from "./supervisor-protocol.js";
import { SupervisorChannel } from "./supervisor-channel.js";
import type { SandboxResult } from "./types.js";

/** The supervisor's own start: pid 1, a bare PATH, at the root; each command gets its env and cwd from its request. */
export const SUPERVISOR_INSIDE = { env: { PATH: "/usr/bin:/bin" }, cwd: "/", asPid1: true };

export interface LongLivedCommand extends OutputSinkOptions {
  cwd: string;
  env: Record<string, string>;
  /** The exec argv: prlimit with the run's limits, then the command. */
  argv: string[];
  timeoutMs: number;
  signal?: AbortSignal;
  diskQuota: DiskQuota;
}

/**
 * One bubblewrap sandbox kept for many commands (supervisor-script.ts runs them, one at a time).
 * The namespaces, mounts and the pids cgroup are made once; each command gets its own limits
 * (prlimit), its own process group and a clean /tmp. A command that ends by timeout, abort or the
 * disk quota ends the whole sandbox, as the one-shot form does; so does anything the host cannot
 * verify afterwards (a pids cgroup holding more than bwrap and the supervisor, an unclean reset).
 */
export class LongLivedSandbox {
  private busy = false;
  private dead = false;
  private readonly stdout = new FencedStream();
  private readonly stderr = new FencedStream();

  private constructor(
    private readonly child: StartedProcess,
    private readonly channel: SupervisorChannel,
    private readonly cgroup: PidsCgroup | null,
  ) {
    (child.stdout as Readable).on("data", (c: Buffer) => this.stdout.push(c));
    (child.stderr as Readable).on("data", (c: Buffer) => this.stderr.push(c));
  }

  /** Starts bwrap with the supervisor for `run`'s layout; rejects (spawn_failed) when it does not come up. */
  static async start(host: BwrapHostSetup, run: PreparedRun, layout: BwrapHost, perl: string, syscalls: SupervisorSyscalls): Promise<LongLivedSandbox> {
    const mode = host.processLimit;
    const handshakeFds = mode.kind === "cgroup" ? HANDSHAKE_FDS : undefined;
    const args = [...bubblewrapSetup(run, { ...layout, handshakeFds }, SUPERVISOR_INSIDE), "--", perl, "-e", SUPERVISOR_PERL, ...supervisorArgs(syscalls)];
    const start = closingDescriptors(host.bash, CONTROL_FD, host.bwrap, args);
    // +1: bwrap's outer process, which only waits for the sandbox; the supervisor counts as bwrap's init does.
    const cgroup = mode.kind === "cgroup" ? await PidsCgroup.create(mode, run.limits.maxProcesses + 1) : null;
    const child = startProcess({
      command: start.command,
      args: start.args,
      detached: true,
      extraPipes: CONTROL_FD - 2,
      env: { PATH: "/usr/bin:/bin" },
      cwd: "/",
    });
    // Asked for as a pipe just above.
    const channel = new SupervisorChannel(child, child.stdio[CONTROL_FD] as Readable);
    const box = new LongLivedSandbox(child, channel, cgroup);
    try {
      // The handshake moves bwrap itself into the cgroup first: it needs its pid.
      await new Promise((resolve, reject) => {
        child.once("spawn", resolve);
        child.once("error", reject);
      });
      if (cgroup) await joinCgroupThenRelease(child, cgroup);
      const ready = await channel.next();
      if (ready !== "ready") throw new Error(box.stderr.stray.trim() || "the supervisor did not start");
      if (cgroup) box.members = new Set(await cgroup.members());
      return box;
    } catch (e) {
      await box.close();
      throw new SandboxError("spawn_failed", `cannot start a long-lived bubblewrap sandbox: ${(e as Error).message}`);
    }
  }

  /** Host pids the cgroup holds between commands: bwrap's outer process and the supervisor. */
  private members: Set<number> | null = null;

  get available(): boolean {
    return !this.busy && !this.dead;
  }

  get gone(): boolean {
    return this.dead;
  }

  /** Runs one command; null when the supervisor could not start it (the caller runs it one-shot). */
  async run(cmd: LongLivedCommand): Promise<SandboxResult | null> {
    if (!this.available) throw new Error("a long-lived sandbox runs one command at a time");
    this.busy = true;
    const started = performance.now();
    const fence = randomBytes(16).toString("hex");
    const out = outputSink("stdout", cmd);
    const err = outputSink("stderr", cmd);
    const fenced = Promise.all([
      new Promise<void>((r) => this.stdout.begin(fence, out.push, r)),
      new Promise<void>((r) => this.stderr.begin(fence, err.push, r)),
    ]);
    let killedBy: "timeout" | "abort" | "disk" | null = null;
    const kill = (why: "timeout" | "abort" | "disk"): void => {
      if (killedBy !== null || this.dead) return;
      killedBy = why;
      this.destroy();
    };
    const timer = setTimeout(() => kill("timeout"), cmd.timeoutMs);
    const onAbort = (): void => kill("abort");
    cmd.signal?.addEventListener("abort", onAbort, { once: true });
    let diskGrace: NodeJS.Timeout | undefined;
    // As in supervise.ts: a moment to end on the file-size signal, the more precise reason.
    const disk = watchDiskQuota(cmd.diskQuota, () => (diskGrace = setTimeout(() => kill("disk"), DISK_KILL_GRACE_MS)));
    try {
      (this.child.stdin as Writable).write(encodeRequest({ fence, cwd: cmd.cwd, env: cmd.env, argv: cmd.argv }));
      const line = await this.channel.next();
      const report = line === null ? null : parseReport(line);
      if (report !== null && report.fence === fence && report.status === -1) return null;
      if (report !== null && report.fence === fence) await Promise.race([fenced, this.channel.closed]);
      if (report === null || report.fence !== fence) this.destroy();
      else if (!report.clean || !(await this.onlySupervisorLeft())) this.destroy();
      if (this.dead) await this.channel.closed;
      this.stdout.flush();
      this.stderr.flush();
      out.end();
      err.end();
      return this.result(report?.fence === fence ? report : null, killedBy, out.kept, err.kept, started);
    } finally {
      clearTimeout(timer);
      clearTimeout(diskGrace);
      disk.stop();
      cmd.signal?.removeEventListener("abort", onAbort);
      this.busy = false;
      if (this.dead) await this.cgroup?.remove();
    }
  }

  private result(
    report: SupervisorReport | null,
    killedBy: string | null,
    stdout: { text(): string; truncated: boolean },
    stderr: { text(): string; truncated: boolean },
    started: number,
  ): SandboxResult {
    // Killed from outside, as a one-shot run is: no exit status, SIGKILL.
    const killed = report === null;
    const note = killed && killedBy === null ? "\npatchgate-sandbox: the sandbox ended during the run\n" : "";
    return {
      exitCode: killed ? null : exitCodeOf(report.status),
      signal: killed ? "SIGKILL" : null,
      stdout: stdout.text(),
      stderr: stderr.text() + note,
      truncated: stdout.truncated || stderr.truncated,
      timedOut: killedBy === "timeout",
      ...(killedBy === "disk" ? { limitExceeded: "disk" as const } : {}),
      durationMs: Math.round(performance.now() - started),
    };
  }

  /** As root: the pids cgroup holds exactly what it held before the command (bwrap and the supervisor). */
  private async onlySupervisorLeft(): Promise<boolean> {
    if (this.cgroup === null || this.members === null) return true;
    const now = await this.cgroup.members();
    return now.length === this.members.size && now.every((pid) => this.members?.has(pid));
  }

  /** Kills the sandbox at once: bwrap's process group (the supervisor dies with bwrap), then whatever the cgroup still holds. */
  private destroy(): void {
    if (this.dead) return;
    this.dead = true;
    if (this.child.pid !== undefined) {
      try {
        process.kill(-this.child.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    }
    void this.cgroup?.killAll();
  }

  /** Ends the sandbox and waits until nothing of it is left. */
  async close(): Promise<void> {
    this.destroy();
    await this.channel.closed;
    await this.cgroup?.remove();
  }
}

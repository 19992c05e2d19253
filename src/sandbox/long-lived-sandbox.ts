import { randomBytes } from "node:crypto";
import { performance } from "node:perf_hooks";
import type { Readable, Writable } from "node:stream";
import { ProcessError, startProcess, type StartedProcess } from "../process/index.js";
import { bubblewrapSetup, type BwrapHost } from "./bubblewrap-argv.js";
import { HANDSHAKE_FDS, joinCgroupThenRelease } from "./cgroup-handshake.js";
import { closingDescriptors } from "./close-fds.js";
import type { BwrapHostSetup } from "./host-layout.js";
import { outputSink, type OutputSinkOptions } from "./output-capture.js";
import { FencedStream } from "./output-fence.js";
import { LayerMounter } from "./layer-mounter.js";
import { PidsCgroup } from "./pids-cgroup.js";
import {
  mountRunOverlay,
  OWN_USER_NS,
  overlayTools,
  settleRunOverlay,
  supervisorPid,
  type LayerOutcome,
  type OverlayTarget,
  type RunDiskLimits,
} from "./run-overlay.js";
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
  /** What the command may write (its layer's size) and how much the workspace may grow by what it keeps (run-overlay.ts). */
  disk: RunDiskLimits;
  /** What it wrote where git ignores is not kept (SandboxRunRequest.discardIgnored). */
  discardIgnored?: (rels: readonly string[]) => Promise<Set<string>>;
}

/**
 * One bubblewrap sandbox kept for many commands (supervisor-script.ts runs them, one at a time).
 * The namespaces, mounts and the pids cgroup are made once; each command gets its own limits
 * (prlimit), its own process group, a clean /tmp and, when the workspace is writable, a layer of its
 * own over it (run-overlay.ts), copied into the workspace after it within the disk limit. A command
 * that ends by timeout or abort ends the whole sandbox, its writes with it; so does anything the host
 * cannot verify afterwards (a pids cgroup holding more than bwrap and the supervisor, an unclean reset).
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
    child.on("error", (e: Error) => {
      if (ProcessError.isInstance(e)) this.lost = e;
    });
  }

  /** Set when the spawn helper running the sandbox died: nobody can tell how a run then ended. */
  private lost: Error | null = null;

  /** Starts bwrap with the supervisor for `run`'s layout; rejects (spawn_failed) when it does not come up. */
  static async start(host: BwrapHostSetup, run: PreparedRun, layout: BwrapHost, perl: string, syscalls: SupervisorSyscalls): Promise<LongLivedSandbox> {
    const mode = host.processLimit;
    const handshakeFds = mode.kind === "cgroup" ? HANDSHAKE_FDS : undefined;
    const writable = !run.readOnlyWorkspace;
    const args = [...bubblewrapSetup(run, { ...layout, handshakeFds }, SUPERVISOR_INSIDE), "--", perl, "-e", SUPERVISOR_PERL, ...supervisorArgs(syscalls)];
    const start = closingDescriptors(host.bash, CONTROL_FD, host.bwrap, args);
    const ns = writable ? overlayTools(host) : null;
    // +1: bwrap's outer process, which only waits for the sandbox; the supervisor counts as bwrap's init does.
    const cgroup = mode.kind === "cgroup" ? await PidsCgroup.create(mode, run.limits.maxProcesses + 1) : null;
    const child = startProcess({
      command: ns?.unshare ?? start.command,
      args: ns?.unshare ? [...OWN_USER_NS, start.command, ...start.args] : start.args,
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
      if (ns) {
        const userNs = ns.unshare === null ? null : `/proc/${child.pid}/ns/user`;
        const pid = await supervisorPid(child);
        const mounter = LayerMounter.start({ nsenter: ns.nsenter, perl, syscalls: ns.syscalls, supervisorPid: pid, userNs });
        box.overlay = { mounter, hasGit: layout.hasGit, supervisorPid: pid, workspace: run.workspace };
      }
      return box;
    } catch (e) {
      await box.close();
      throw new SandboxError("spawn_failed", `cannot start a bubblewrap sandbox: ${(e as Error).message}`);
    }
  }

  /** Set when the workspace is writable: each command writes to a layer of its own (run-overlay.ts). */
  private overlay: (OverlayTarget & { workspace: string }) | null = null;

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
    let killedBy: "timeout" | "abort" | null = null;
    const kill = (why: "timeout" | "abort"): void => {
      if (killedBy !== null || this.dead) return;
      killedBy = why;
      this.destroy();
    };
    try {
      if (this.overlay) await mountRunOverlay(this.overlay, cmd.disk.runBytes);
    } catch (e) {
      this.busy = false;
      await this.close();
      throw e;
    }
    const timer = setTimeout(() => kill("timeout"), cmd.timeoutMs);
    const onAbort = (): void => kill("abort");
    cmd.signal?.addEventListener("abort", onAbort, { once: true });
    if (cmd.signal?.aborted) kill("abort");
    try {
      (this.child.stdin as Writable).write(encodeRequest({ fence, cwd: cmd.cwd, env: cmd.env, argv: cmd.argv }));
      const line = await this.channel.next();
      const report = line === null ? null : parseReport(line);
      if (report === null && this.lost !== null && killedBy === null) {
        this.destroy();
        throw new SandboxError("backend_lost", `bubblewrap: ${this.lost.message}`);
      }
      if (report !== null && report.fence === fence && report.status === -1) {
        // Its layer stays mounted over the workspace: the sandbox is not used again.
        if (this.overlay) await this.close();
        return null;
      }
      if (report !== null && report.fence === fence) await Promise.race([fenced, this.channel.closed]);
      if (report === null || report.fence !== fence || !(await this.onlySupervisorLeft())) this.destroy();
      clearTimeout(timer);
      // Nothing of the command runs any more (the supervisor killed the rest): its layer is settled now.
      const layer = this.overlay && !this.dead ? await this.settle(cmd.disk, cmd.discardIgnored) : null;
      if (report !== null && !report.clean) this.destroy();
      if (this.dead) await this.channel.closed;
      this.stdout.flush();
      this.stderr.flush();
      out.end();
      err.end();
      const result = this.result(report?.fence === fence ? report : null, killedBy, out.kept, err.kept, started);
      return layer === null ? result : withLayer(result, layer, cmd.disk);
    } finally {
      clearTimeout(timer);
      cmd.signal?.removeEventListener("abort", onAbort);
      this.busy = false;
      if (this.dead) await this.cgroup?.remove();
    }
  }

  /** The command's writes kept in the workspace, or not when over the limit; a failure here ends the sandbox. */
  private async settle(disk: RunDiskLimits, discardIgnored: LongLivedCommand["discardIgnored"]): Promise<LayerOutcome> {
    const overlay = this.overlay as OverlayTarget & { workspace: string };
    try {
      return await settleRunOverlay(overlay, disk, overlay.workspace, discardIgnored);
    } catch (e) {
      this.destroy();
      throw new SandboxError("backend_lost", `cannot keep the run's writes: ${(e as Error).message}`);
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
    this.overlay?.mounter.close();
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

const MIB = 1024 * 1024;

/**
 * A command over the disk limit kept nothing and did not finish within its limits, whatever its exit
 * status (a writer that swallows ENOSPC may still exit 0): no exit code, the limit named.
 */
function withLayer(result: SandboxResult, layer: LayerOutcome, disk: RunDiskLimits): SandboxResult {
  if (!layer.exceeded) {
    const dropped = layer.dropped.length > 0 ? { droppedSpecial: layer.dropped } : {};
    return { ...result, ...dropped, ...(layer.grownBytes === 0 ? {} : { diskBytesAdded: layer.grownBytes }) };
  }
  const mib = (n: number): string => `${(n / MIB).toFixed(1)} MiB`;
  const left = disk.leftBytes < disk.runBytes ? `, of which the session's earlier runs left ${mib(disk.leftBytes)} to keep` : "";
  const note = `\npatchgate-sandbox: the run tried to write more than the disk limit (${mib(disk.runBytes)}${left}); none of its writes were kept\n`;
  return { ...result, exitCode: null, stderr: result.stderr + note, limitExceeded: "disk" };
}

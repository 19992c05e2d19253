import { bubblewrapSetup } from "./bubblewrap-argv.js";
import { bubblewrapLayout, longLivedCommand, prepareBubblewrapRun } from "./bubblewrap-layout.js";
import { DiskBudget } from "./disk-budget.js";
import { decodeLimitSignal } from "./disk-quota.js";
import type { BwrapHostSetup } from "./host-layout.js";
import { LongLivedSandbox, SUPERVISOR_INSIDE } from "./long-lived-sandbox.js";
import { SUPERVISOR_SYSCALLS, type SupervisorSyscalls } from "./supervisor-script.js";
import type { PreparedRun } from "./prepare-run.js";
import type { Mount } from "./toolchain-binding.js";
import type { Sandbox, SandboxResult, SandboxRunRequest, SessionSandbox } from "./types.js";

/** A session's sandboxes at most: the writable workspace and the read-only one; an older layout is closed. */
const KEPT = 2;

/**
 * One session's bubblewrap: a long-lived sandbox per layout (mounts, read-only or writable
 * workspace, tmpfs size, process limit), started at its first command and kept until `close`.
 * A layout that changes (a toolchain recorded, a .git appearing) gets a sandbox of its own, since
 * the layout is computed afresh for every command exactly as the one-shot form computes it.
 * Stays one-shot (BubblewrapSandbox.run), on purpose:
 * - a networked run (the setup step): its egress proxy and CA files are its alone, short-lived;
 * - a run while the session's sandbox for that layout is busy (calls run side by side);
 * - hosts without /usr/bin/perl or with an architecture whose prctl and keyctl numbers are not known;
 * - after the long-lived form failed to start once in this session.
 */
export class BubblewrapSession implements SessionSandbox {
  readonly backend = "bubblewrap" as const;
  readonly writesByReplacing = true;
  private readonly kept = new Map<string, Promise<LongLivedSandbox | null>>();
  private closed = false;
  /** Every sandbox started for this session, kept or not, until close. */
  private readonly started = new Set<Promise<LongLivedSandbox | null>>();
  /** Why this session's commands run one-shot, once the long-lived form could not start. */
  fallbackReason: string | null = null;
  /** How many commands ran in a kept sandbox and how many on their own (for tests and the bench). */
  longLivedRuns = 0;
  oneShotRuns = 0;
  /** How many sandboxes the session started (for tests and the bench). */
  sandboxesStarted = 0;

  /** `clientMounts`: what every run of the sandbox binds besides the session's own (the registries' client files). */
  constructor(
    private readonly oneShot: Sandbox,
    private readonly host: BwrapHostSetup,
    private readonly clientMounts: () => Promise<Mount[]> = async () => [],
  ) {}

  /** What the session's runs left in the workspace: bounded by the disk limit for the whole session (disk-budget.ts). */
  private readonly budget = new DiskBudget();

  async run(req: SandboxRunRequest): Promise<SandboxResult> {
    if (req.readOnlyWorkspace === true) return this.runBounded(req);
    const run = await prepareBubblewrapRun(this.host, req);
    const result = await this.runBounded({ ...req, diskLeftBytes: await this.budget.left(run.workspace, run.limits.diskBytes) });
    await this.budget.record(run.workspace, result.diskBytesAdded ?? 0);
    return result;
  }

  /** Lays out a run like `req` and starts its kept sandbox, so that the run itself only runs. */
  async prepare(req: SandboxRunRequest): Promise<void> {
    await this.keptFor(req).catch(() => null);
  }

  private async runBounded(req: SandboxRunRequest): Promise<SandboxResult> {
    const kept = await this.keptFor(req);
    if (kept === null) return this.runOnce(req);
    const result = await kept.box.run(longLivedCommand(this.host, kept.run, req));
    if (result === null) return this.runOnce(req);
    this.longLivedRuns++;
    return decodeLimitSignal(result);
  }

  /** The kept sandbox of `req`'s layout, started when there is none; null when the run is to be one-shot. */
  private async keptFor(req: SandboxRunRequest): Promise<{ box: LongLivedSandbox; run: PreparedRun } | null> {
    const syscalls = SUPERVISOR_SYSCALLS[process.arch];
    const perl = this.host.perl;
    if (req.network === true || this.closed || !perl || syscalls === undefined || this.fallbackReason !== null || req.signal?.aborted) return null;
    // One lookup at a time: a run and the readying of its layout, side by side, start one sandbox, not two.
    const found = this.lookups.then(() => this.entryFor(req, perl, syscalls));
    this.lookups = found.catch(() => undefined);
    const picked = await found;
    if (picked === null) return null;
    const box = await picked.entry;
    if (box === null || !box.available || this.closed) return null;
    return { box, run: picked.run };
  }

  private lookups: Promise<unknown> = Promise.resolve();

  private async entryFor(
    req: SandboxRunRequest,
    perl: string,
    syscalls: SupervisorSyscalls,
  ): Promise<{ entry: Promise<LongLivedSandbox | null>; run: PreparedRun } | null> {
    const run = await prepareBubblewrapRun(this.host, req);
    const layout = await bubblewrapLayout(this.host, req, run, await this.clientMounts());
    const key = JSON.stringify([bubblewrapSetup(run, layout, SUPERVISOR_INSIDE), run.limits.maxProcesses]);
    let entry = this.kept.get(key);
    if (entry === undefined || (await entry)?.gone !== false) {
      await this.makeRoom();
      // Closed while this run was laid out (its resume aborted): a sandbox started now would outlive the session.
      if (this.closed) return null;
      this.sandboxesStarted++;
      entry = LongLivedSandbox.start(this.host, run, layout, perl, syscalls).catch((e: Error) => {
        this.fallbackReason = e.message;
        return null;
      });
      this.kept.set(key, entry);
      this.started.add(entry);
    } else {
      // Most recently used last, so that makeRoom closes the oldest.
      this.kept.delete(key);
      this.kept.set(key, entry);
    }
    return { entry, run };
  }

  private runOnce(req: SandboxRunRequest): Promise<SandboxResult> {
    this.oneShotRuns++;
    return this.oneShot.run(req);
  }

  /** Ends every sandbox of the session; later runs are one-shot. */
  async close(): Promise<void> {
    this.closed = true;
    // Every sandbox this session ever started, not only the kept ones: one whose entry was replaced
    // (two runs starting a layout at once) must not outlive the session either.
    const all = [...new Set([...this.kept.values(), ...this.started])];
    this.kept.clear();
    this.started.clear();
    await Promise.all(all.map(async (p) => (await p)?.close()));
  }

  private async makeRoom(): Promise<void> {
    for (const [key, entry] of this.kept) {
      if (this.kept.size < KEPT) return;
      const box = await entry;
      if (box !== null && !box.available && !box.gone) continue;
      this.kept.delete(key);
      await box?.close();
    }
  }
}

import { hostname } from "node:os";
import { randomBytes } from "node:crypto";
import { PgBoss } from "pg-boss";
import type pg from "pg";
import type { Job, Queue } from "../types.js";
import { DEFAULT_BACKOFF, type Backoff } from "./backoff.js";
import { LaneTable, type LaneLease, type QueueCounts, type QueuedItem } from "./lane-table.js";
import { drainLane, type ItemRunner } from "./lane-runner.js";
import { cronOptions, wakeEveryMinute } from "./minute-wake.js";

/** pg-boss's queue of wake-ups: one job per enqueued item, naming its lane. */
const WAKE = "patchgate-wake";

export interface DurableQueueOptions {
  /** The database the store uses (DATABASE_URL); the queue's tables are in its migrations. */
  url: string;
  pool: pg.Pool;
  /** Who holds leases; unique per process. */
  owner?: string;
  /** Lanes this process drains at once; 0 for a receiver, which only enqueues. */
  slots: number;
  /** Without it the process cannot run jobs (a receiver). */
  runner?: ItemRunner;
  leaseMs?: number;
  heartbeatMs?: number;
  /** How often a worker with a free slot looks for work no wake-up announced (a dead worker's lane). */
  sweepMs?: number;
  maxAttempts?: number;
  backoff?: Backoff;
  onInterrupt?: (lane: string, reason: string) => void;
  onFailed?: (item: QueuedItem, error: unknown) => void;
  onDead?: (item: QueuedItem, lease: LaneLease) => Promise<void>;
  log?: (line: string) => void;
  /** Run once a minute on one worker of the cluster (./minute-wake.ts); a worker's only (it needs slots). */
  everyMinute?: () => Promise<void>;
}

function processOwner(): string {
  return `${hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`;
}

/**
 * The scale-out queue (DATABASE_URL): jobs are rows in lanes (src/queue/pg/lane-table.ts), a lane
 * is run by one worker at a time under a lease, and pg-boss carries the wake-ups between processes
 * (a sweep every `sweepMs` finds what no wake-up announced: a dead worker's lane, a backoff ended).
 * The order, the lease, the slots and the attempts are ours, not pg-boss's: its per-key FIFO lets a
 * failed job hold its key back, its retries count a thrown error like a dead worker, and a job it
 * hands over after a missed heartbeat carries no epoch to fence the old worker's writes with
 * (docs/dependencies.md). Jobs must carry a `spec`: a closure cannot cross processes.
 */
export class DurableQueue implements Queue {
  readonly durable = true;
  readonly owner: string;
  private readonly table: LaneTable;
  private readonly boss: PgBoss;
  private readonly o: Required<Omit<DurableQueueOptions, "runner" | "url" | "pool" | "owner" | "everyMinute">> & Pick<DurableQueueOptions, "runner">;
  private running = 0;
  private readonly enqueues = new Set<Promise<string>>();
  private tail: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private filling = false;
  private readonly drains = new Set<Promise<void>>();

  private constructor(opts: DurableQueueOptions, boss: PgBoss) {
    this.owner = opts.owner ?? processOwner();
    this.table = new LaneTable(opts.pool);
    this.boss = boss;
    const leaseMs = opts.leaseMs ?? 15_000;
    this.o = {
      slots: opts.slots,
      runner: opts.runner,
      leaseMs,
      heartbeatMs: opts.heartbeatMs ?? Math.min(1_000, Math.floor(leaseMs / 3)),
      sweepMs: opts.sweepMs ?? 1_000,
      maxAttempts: opts.maxAttempts ?? 3,
      backoff: opts.backoff ?? DEFAULT_BACKOFF,
      onInterrupt: opts.onInterrupt ?? (() => undefined),
      onFailed: opts.onFailed ?? (() => undefined),
      onDead: opts.onDead ?? (async () => undefined),
      log: opts.log ?? (() => undefined),
    };
  }

  static async start(opts: DurableQueueOptions): Promise<DurableQueue> {
    if (opts.slots > 0 && !opts.runner) throw new Error("a durable queue with slots needs a runner");
    const minute = opts.slots > 0 ? opts.everyMinute : undefined;
    const boss = new PgBoss({ connectionString: opts.url, max: 4, ...cronOptions(minute !== undefined), supervise: opts.slots > 0 });
    boss.on("error", (e: Error) => opts.log?.(`pg-boss: ${e.message}`));
    await boss.start();
    // Every process creates it; the first one wins and the rest find it there.
    await boss.createQueue(WAKE).catch(() => undefined);
    const q = new DurableQueue(opts, boss);
    if (opts.slots > 0) {
      // A wake-up only rings the bell: `fill` takes lanes by the fair pick, the one named or another.
      await boss.work(WAKE, { batchSize: 4, pollingIntervalSeconds: 0.5 }, async () => q.fill());
      q.timer = setInterval(() => q.fill(), q.o.sweepMs);
      if (minute) await wakeEveryMinute(boss, minute);
    }
    return q;
  }

  enqueue(job: Job): void {
    void this.add(job).catch(() => undefined); // logged by add; `flushed` rejects with it
  }

  private add(job: Job): Promise<string> {
    if (this.closed) throw new Error(`queue closed; dropped ${job.name}`);
    if (!job.spec) throw new Error(`job ${job.name} has no spec: it cannot run in another process`);
    const spec = job.spec;
    // One insert after another: the rows' ids are the lanes' order, so they are taken in call order.
    const p: Promise<string> = this.tail
      .then(() => this.table.add(job.key, job.group ?? "", job.name, spec))
      .then(async (id) => {
        await this.boss.send(WAKE, { lane: job.key });
        return id;
      })
      .finally(() => this.enqueues.delete(p));
    this.tail = p.then(
      () => undefined,
      (e: unknown) => this.o.log(`enqueue ${job.name} failed: ${e instanceof Error ? e.message : String(e)}`),
    );
    this.enqueues.add(p);
    return p;
  }

  /** Resolves once every enqueue of this process is in the database (it rejects if one failed). */
  async flushed(): Promise<void> {
    await Promise.all([...this.enqueues]);
  }

  /** Asks the worker that runs `lane` now to abort its job (`/agent stop` across processes). */
  interrupt(lane: string, reason: string): Promise<boolean> {
    return this.table.interrupt(lane, reason);
  }

  stopPending(lane: string): Promise<boolean> {
    return this.table.hasQueued(lane, "stop-cancel");
  }

  counts(): Promise<QueueCounts> {
    return this.table.counts();
  }

  /** Resolves when no job is open in the database (queued or running, on any process). */
  async idle(): Promise<void> {
    await this.flushed();
    // The work may be on other processes: the database is the only place to ask.
    while ((await this.table.openCount()) > 0) await new Promise((r) => setTimeout(r, 50));
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await Promise.allSettled([...this.enqueues]);
    await Promise.allSettled([...this.drains]);
    await this.boss.stop({ graceful: false, close: true });
  }

  /** Takes lanes, fairly, while slots are free. */
  private fill(): void {
    if (this.filling || this.closed) return;
    this.filling = true;
    this.fillOnce()
      .catch((e: unknown) => this.o.log(`queue: ${e instanceof Error ? e.message : String(e)}`))
      .finally(() => (this.filling = false));
  }

  private async fillOnce(): Promise<void> {
    while (!this.closed && this.running < this.o.slots) {
      const lane = await this.table.pick(this.o.backoff);
      if (!lane) return;
      const lease = await this.table.acquire(lane, this.owner, this.o.leaseMs);
      if (!lease) continue; // another worker took it between the pick and now
      this.running += 1;
      const d: Promise<void> = drainLane(lease, { ...this.o, table: this.table, runner: this.o.runner! })
        .catch((e: unknown) => this.o.log(`lane ${lane}: ${e instanceof Error ? e.message : String(e)}`))
        .finally(() => {
          this.running -= 1;
          this.drains.delete(d);
          this.fill();
        });
      this.drains.add(d);
    }
  }
}

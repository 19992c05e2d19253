import { LeaseLostError } from "../../store/fence.js";
import type { JobSpec } from "../types.js";
import type { LaneLease, LaneTable, QueuedItem } from "./lane-table.js";

/** What a worker's runner gets with each job: the lease it runs under (for fenced writes) and its abort. */
interface ItemContext {
  lane: string;
  name: string;
  lease: LaneLease;
  /** Aborted when the lease is lost; `onInterrupt` decides what a stop aborts. */
  signal: AbortSignal;
  /** 1 on the first run; more after workers died running it. */
  attempt: number;
  /** From the job's enqueue to this start. */
  waitedSeconds: number;
}

export type ItemRunner = (spec: JobSpec, ctx: ItemContext) => Promise<void>;

export interface LaneRunnerOptions {
  table: LaneTable;
  runner: ItemRunner;
  leaseMs: number;
  heartbeatMs: number;
  /** Attempts that may die (the worker killed mid-job) before the job is dead-lettered. */
  maxAttempts: number;
  onInterrupt: (lane: string, reason: string) => void;
  onFailed: (item: QueuedItem, error: unknown) => void;
  /** Runs under the lane's lease, before the item is marked dead: a worker dying in it leaves it to the next. */
  onDead: (item: QueuedItem, lease: LaneLease) => Promise<void>;
  log?: (line: string) => void;
}

/**
 * Drains one leased lane: its items in order, one at a time, while a heartbeat keeps the lease.
 * An item that throws ends `failed` (its job has answered on GitHub already) and the lane goes on;
 * an item whose worker died is run again by whoever takes the lane next, until it has died
 * `maxAttempts` times, and then ends `dead`, visible in `patchgate status`.
 */
export async function drainLane(lease: LaneLease, o: LaneRunnerOptions): Promise<void> {
  const lost = new AbortController();
  let current: string | null = null;
  const beat = setInterval(() => {
    o.table.renew(lease, o.leaseMs).then(
      (r) => {
        if (!r.held) lost.abort(new LeaseLostError(lease.lane));
        else if (r.interrupt && r.interrupt.item === current) o.onInterrupt(lease.lane, r.interrupt.reason);
      },
      () => undefined, // the database is unreachable: the next beat tries again; the lease runs out if it stays so
    );
  }, o.heartbeatMs);
  try {
    for (;;) {
      if (lost.signal.aborted) return;
      const item = await o.table.next(lease);
      if (!item) return;
      current = item.id;
      if (item.attempts > o.maxAttempts) {
        // Ended visibly first, then marked: if this worker dies in between, the next one does both.
        await o.onDead(item, lease).catch((e: unknown) => o.log?.(`dead letter ${item.name}: ${e instanceof Error ? e.message : String(e)}`));
        if (lost.signal.aborted) return;
        await o.table.end(item.id, "dead", `its worker died ${item.attempts - 1} time(s) running it`);
        continue;
      }
      try {
        await o.runner(item.spec as JobSpec, {
          lane: lease.lane,
          name: item.name,
          lease,
          signal: lost.signal,
          attempt: item.attempts,
          waitedSeconds: item.waitedSeconds,
        });
        if (lost.signal.aborted) return; // the new holder runs it again; its effects are idempotent
        await o.table.end(item.id, "done", null);
      } catch (e) {
        if (lost.signal.aborted) return;
        o.onFailed(item, e);
        await o.table.end(item.id, "failed", e instanceof Error ? e.message : String(e));
      }
    }
  } finally {
    clearInterval(beat);
    await o.table.release(lease).catch(() => undefined);
  }
}

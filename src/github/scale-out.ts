import { availableParallelism, totalmem } from "node:os";
import type { Probot } from "probot";
import { DurableQueue } from "../queue/pg/durable-queue.js";
import type { PostgresSessionStore } from "../store/pg-store.js";
import { appAccess } from "./app.js";
import type { PatchgateDeps } from "./deps.js";
import { endDeadLettered } from "./session-work/dead-letter.js";
import { startHousekeeping } from "./session-work/housekeeping.js";
import { durableRunner, fencedAccess } from "./session-work/durable-runner.js";

/**
 * The two process kinds of scale-out (docs/scaling-out.md), both on the PostgreSQL of
 * DATABASE_URL: a receiver verifies, stores and enqueues (its queue has no slots); a worker takes
 * lanes from the queue and runs them. `deps.queue` becomes the durable queue in both, so every job
 * a handler or a job enqueues goes through the database.
 */
export interface WorkerSettings {
  url: string;
  /** Sessions this worker runs at once (PATCHGATE_WORKER_SLOTS). */
  slots: number;
  leaseMs?: number;
  heartbeatMs?: number;
  sweepMs?: number;
  maxAttempts?: number;
  owner?: string;
}

/** One session per core, and no more than one per 2 GiB of memory: a test run can take that much. */
export function defaultSlots(cores = availableParallelism(), memory = totalmem()): number {
  return Math.max(1, Math.min(cores, Math.floor(memory / 2 ** 31)));
}

export async function useReceiverQueue(deps: PatchgateDeps, store: PostgresSessionStore, url: string): Promise<DurableQueue> {
  const queue = await DurableQueue.start({ url, pool: store.pool, slots: 0, log: deps.log });
  deps.queue = queue;
  return queue;
}

export async function startWorker(app: Probot, deps: PatchgateDeps, store: PostgresSessionStore, s: WorkerSettings): Promise<DurableQueue> {
  const access = appAccess(app, deps);
  const queue = await DurableQueue.start({
    ...s,
    pool: store.pool,
    runner: durableRunner(access, store),
    // A stop from another process: abort what this one runs for the lane, as a local stop would.
    onInterrupt: (lane, reason) => deps.aborts.abort(lane, reason),
    onFailed: (item, e) => deps.log(`job ${item.name} failed: ${e instanceof Error ? e.message : String(e)}`, "error", { job: item.name, lane: item.lane }),
    onDead: async (item, lease) => {
      deps.log(`job ${item.name} is dead-lettered: its worker died ${item.attempts - 1} time(s) running it`, "error", {
        job: item.name,
        lane: item.lane,
        attempts: item.attempts,
      });
      await endDeadLettered(fencedAccess(access, store, lease), item);
    },
    log: deps.log,
  });
  deps.queue = queue;
  // Each worker has a disk of its own: it cleans what it cloned.
  startHousekeeping(deps);
  deps.log(`worker ${queue.owner} takes up to ${s.slots} session(s) at once`);
  return queue;
}

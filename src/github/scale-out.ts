import { availableParallelism, totalmem } from "node:os";
import type { Probot } from "probot";
import { DurableQueue } from "../queue/pg/durable-queue.js";
import type { PostgresSessionStore } from "../store/pg-store.js";
import { appContext } from "./app.js";
import type { AppContext, PatchgateDeps } from "./deps.js";
import { endDeadLettered } from "./session-work/dead-letter.js";
import { startHousekeeping } from "./session-work/housekeeping.js";
import { runSchedules } from "./session-work/schedule-tick.js";
import { durableRunner, fencedContext } from "./session-work/durable-runner.js";

/**
 * The two process kinds of scale-out (docs/scaling-out.md), both on the PostgreSQL of
 * DATABASE_URL: a receiver verifies, stores and enqueues (its queue has no slots); a worker takes
 * lanes from the queue and runs them, and one of them, each minute, the schedules' pass. Both return
 * their dependencies with the durable queue in place of the given one, so every job a handler or a
 * job enqueues goes through the database.
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

type ScaledOut = PatchgateDeps & { queue: DurableQueue };

/** One session per core, and no more than one per 2 GiB of memory: a test run can take that much. */
export function defaultSlots(cores = availableParallelism(), memory = totalmem()): number {
  return Math.max(1, Math.min(cores, Math.floor(memory / 2 ** 31)));
}

/** The receiver's dependencies: `deps` with the durable queue, through which every job is enqueued. */
export async function useReceiverQueue(deps: PatchgateDeps, store: PostgresSessionStore, url: string): Promise<ScaledOut> {
  const queue = await DurableQueue.start({ url, pool: store.pool, slots: 0, log: deps.log });
  return { ...deps, queue };
}

/**
 * The worker's dependencies: `deps` with the durable queue, whose jobs run in the app's context.
 * That context holds the queue, and the queue may take a lane before its start returns: its jobs
 * wait for the context, which is made once, right after.
 */
export async function startWorker(app: Probot, deps: PatchgateDeps, store: PostgresSessionStore, s: WorkerSettings): Promise<ScaledOut> {
  let made: (context: AppContext) => void = () => undefined;
  const context = new Promise<AppContext>((resolve) => (made = resolve));
  const schedules = deps.schedules;
  const queue = await DurableQueue.start({
    ...s,
    pool: store.pool,
    runner: async (spec, ctx) => {
      // The same wait the in-process queue reports, once per job: a run after a dead worker's waited on its lease too.
      if (ctx.attempt === 1) deps.metrics?.queueWaited(ctx.waitedSeconds);
      return durableRunner(await context, store)(spec, ctx);
    },
    // A stop from another process: abort what this one runs for the lane, as a local stop would.
    onInterrupt: (lane, reason) => deps.aborts.abort(lane, reason),
    onFailed: (item, e) => deps.log(`job ${item.name} failed: ${e instanceof Error ? e.message : String(e)}`, "error", { job: item.name, lane: item.lane }),
    onDead: async (item, lease) => {
      deps.log(`job ${item.name} is dead-lettered: its worker died ${item.attempts - 1} time(s) running it`, "error", {
        job: item.name,
        lane: item.lane,
        attempts: item.attempts,
      });
      await endDeadLettered(fencedContext(await context, store, lease), item);
    },
    log: deps.log,
    ...(schedules && { everyMinute: () => schedulesOnThisWorker(context, schedules, deps.log) }),
  });
  const scaled = { ...deps, queue };
  made(appContext(app, scaled));
  // Each worker has a disk of its own: it cleans what it cloned.
  startHousekeeping(scaled);
  deps.log(`worker ${queue.owner} takes up to ${s.slots} session(s) at once`);
  // A firing missed while no worker ran fires now; the store's claim keeps it to one however many start.
  if (schedules) void schedulesOnThisWorker(context, schedules, deps.log);
  return scaled;
}

/** One schedule pass on this worker's clock; a failed one is logged, and the next minute's tries again. */
async function schedulesOnThisWorker(
  context: Promise<AppContext>,
  schedules: NonNullable<PatchgateDeps["schedules"]>,
  log: PatchgateDeps["log"],
): Promise<void> {
  try {
    await runSchedules(await context, schedules.now());
  } catch (e) {
    log(`schedules: ${e instanceof Error ? e.message : String(e)}`, "error");
  }
}

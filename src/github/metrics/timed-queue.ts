import type { Queue } from "../../queue/types.js";
import type { AppMetrics } from "./app-metrics.js";

/**
 * The queue, each job's wait before it runs observed (`patchgate_queue_wait_seconds`). Only where the
 * job runs in this process: a durable queue's jobs run in workers, from their spec, and the worker
 * that starts one reports its wait (../scale-out.ts).
 */
export function timedQueue(queue: Queue, metrics: AppMetrics, now: () => number = () => performance.now()): Queue {
  return {
    enqueue(job) {
      const at = now();
      queue.enqueue({
        ...job,
        run: () => {
          metrics.queueWaited((now() - at) / 1000);
          return job.run();
        },
      });
    },
    idle: () => queue.idle(),
    close: () => queue.close(),
    ...(queue.durable !== undefined && { durable: queue.durable }),
    ...(queue.flushed && { flushed: queue.flushed.bind(queue) }),
    ...(queue.interrupt && { interrupt: queue.interrupt.bind(queue) }),
    ...(queue.stopPending && { stopPending: queue.stopPending.bind(queue) }),
    ...(queue.counts && { counts: queue.counts.bind(queue) }),
  };
}

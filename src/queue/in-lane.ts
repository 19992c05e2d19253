import type { JobSpec, Queue } from "./types.js";

/**
 * Queues `run` in lane `key` (behind whatever that lane holds) and resolves or rejects with it — for
 * work that must not overlap a session's jobs yet whose caller has to know when it is over (a stop
 * or an uninstall whose delivery is done only once the cancellation ran). A failure still reaches
 * the queue's error handler. With a durable queue, `spec` is what goes; see below.
 */
export function runInLane(queue: Queue, key: string, name: string, run: () => Promise<void>, spec?: JobSpec): Promise<void> {
  if (queue.durable) {
    // The lane may be run by another process: the work goes as its spec, and is as durable as the
    // queue once stored — which is when this resolves (not when it has run: waiting here would hold
    // this worker's slot while the lane it waits for may need that very slot).
    if (!spec) return Promise.reject(new Error(`${name} cannot run in another process (no spec)`));
    queue.enqueue({ key, name, run, spec });
    return queue.flushed ? queue.flushed() : Promise.resolve();
  }
  return new Promise<void>((resolve, reject) => {
    queue.enqueue({
      key,
      name,
      run: async () => {
        try {
          await run();
          resolve();
        } catch (e) {
          reject(e);
          throw e;
        }
      },
    });
  });
}

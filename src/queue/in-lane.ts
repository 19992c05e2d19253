import type { Queue } from "./types.js";

/**
 * Queues `run` in lane `key` (behind whatever that lane holds) and resolves or rejects with it — for
 * work that must not overlap a session's jobs yet whose caller has to know when it is over (a stop
 * or an uninstall whose delivery is done only once the cancellation ran). A failure still reaches
 * the queue's error handler.
 */
export function runInLane(queue: Queue, key: string, name: string, run: () => Promise<void>): Promise<void> {
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

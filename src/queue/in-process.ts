import type { Job, JobErrorHandler, Queue, QueueCounts } from "./types.js";

/**
 * The embedded queue: one promise chain per key. A job never starts inside the webhook request,
 * because its first step waits for a macrotask (setImmediate) after the handler returned.
 */
export class InProcessQueue implements Queue {
  private readonly tails = new Map<string, Promise<void>>();
  private pending = 0;
  private running = 0;
  private waiters: (() => void)[] = [];
  private closed = false;

  constructor(private readonly onError: JobErrorHandler = () => {}) {}

  enqueue(job: Job): void {
    if (this.closed) throw new Error(`queue closed; dropped ${job.name}`);
    this.pending += 1;
    const previous = this.tails.get(job.key) ?? Promise.resolve();
    const next = previous
      .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
      .then(async () => {
        this.running += 1;
        try {
          await job.run();
        } finally {
          this.running -= 1;
        }
      })
      .catch((error: unknown) => this.onError(job, error))
      .finally(() => {
        if (this.tails.get(job.key) === next) this.tails.delete(job.key);
        this.pending -= 1;
        if (this.pending === 0) this.wake();
      });
    this.tails.set(job.key, next);
  }

  idle(): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Failures are answered on GitHub and logged, not kept: there is no dead letter in one process. */
  async counts(): Promise<QueueCounts> {
    return { queued: this.pending - this.running, running: this.running, leases: [], failed: [], dead: [] };
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.idle();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }
}

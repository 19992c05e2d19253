/**
 * At most `size` holders at once; the rest wait in arrival order. A waiter whose signal aborts stops
 * waiting and runs without a slot: what it runs sees the same signal and ends at once (a sandbox run
 * kills its process group), so a stopped session never queues behind others to be told it stopped.
 */
export class Semaphore {
  private held = 0;
  private readonly queue: (() => void)[] = [];

  constructor(readonly size: number) {
    if (!Number.isInteger(size) || size < 1) throw new Error(`a semaphore needs a size ≥ 1, not ${size}`);
  }

  get active(): number {
    return this.held;
  }

  get waiting(): number {
    return this.queue.length;
  }

  async run<T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const slot = await this.acquire(signal);
    try {
      return await fn();
    } finally {
      if (slot) this.release();
    }
  }

  /** Resolves true with a slot held, or false when the signal aborted first. */
  private acquire(signal?: AbortSignal): Promise<boolean> {
    if (this.held < this.size) {
      this.held += 1;
      return Promise.resolve(true);
    }
    if (signal?.aborted) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      const grant = (): void => {
        signal?.removeEventListener("abort", onAbort);
        this.held += 1;
        resolve(true);
      };
      const onAbort = (): void => {
        const i = this.queue.indexOf(grant);
        if (i >= 0) this.queue.splice(i, 1);
        resolve(false);
      };
      this.queue.push(grant);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  private release(): void {
    this.held -= 1;
    this.queue.shift()?.();
  }
}

/**
 * Group commit: requests made during one event-loop turn are written in one transaction, so a burst
 * of webhook deliveries costs one fsync instead of one each. Every caller is still answered only
 * after its own write is committed, so "recorded" keeps meaning "durable".
 */
export class GroupCommit<T, R> {
  private queue: { item: T; resolve: (r: R) => void; reject: (e: unknown) => void }[] = [];
  private scheduled = false;

  /** `writeAll` runs the items in one transaction and returns one result per item, in order. */
  constructor(private readonly writeAll: (items: T[]) => R[]) {}

  submit(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        // setImmediate runs after the I/O phase: every request parsed in this turn is in the batch.
        setImmediate(() => this.flush());
      }
    });
  }

  /** Writes whatever is queued now (also used before close, so nothing waits on a dead timer). */
  flush(): void {
    this.scheduled = false;
    const batch = this.queue;
    this.queue = [];
    if (batch.length === 0) return;
    try {
      const results = this.writeAll(batch.map((b) => b.item));
      batch.forEach((b, i) => b.resolve(results[i]));
    } catch (e) {
      for (const b of batch) b.reject(e);
    }
  }
}

/**
 * In-flight work per session, so that `/agent stop` can abort the LLM request and sandbox process
 * now instead of waiting behind the job it wants to stop (which holds the session's queue slot).
 */
export class AbortRegistry {
  private readonly controllers = new Map<string, Set<AbortController>>();

  /** A signal for one piece of work; call `release` when the work has ended. */
  begin(key: string): { signal: AbortSignal; release: () => void } {
    const controller = new AbortController();
    let set = this.controllers.get(key);
    if (!set) this.controllers.set(key, (set = new Set()));
    set.add(controller);
    const release = (): void => {
      set.delete(controller);
      if (set.size === 0 && this.controllers.get(key) === set) this.controllers.delete(key);
    };
    return { signal: controller.signal, release };
  }

  /** Aborts everything running for `key`; returns how many pieces of work were signalled. */
  abort(key: string, reason: string): number {
    const set = this.controllers.get(key);
    if (!set) return 0;
    for (const c of set) c.abort(new Error(reason));
    return set.size;
  }

  /**
   * A stop that is waiting to be applied: work that was queued before it, behind the job it aborted,
   * asks `stopping` and stands down instead of acting on a session about to be cancelled. Counted,
   * so that two stops in a row are both waited for; `stopped` is called once each has been applied.
   */
  private readonly stops = new Map<string, number>();

  stop(key: string): void {
    this.stops.set(key, (this.stops.get(key) ?? 0) + 1);
  }

  stopped(key: string): void {
    const n = (this.stops.get(key) ?? 0) - 1;
    if (n > 0) this.stops.set(key, n);
    else this.stops.delete(key);
  }

  stopping(key: string): boolean {
    return this.stops.has(key);
  }

  active(key: string): boolean {
    return (this.controllers.get(key)?.size ?? 0) > 0;
  }
}

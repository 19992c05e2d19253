import { HandledError } from "../../errors/index.js";

/** A model request that stopped making progress; retried like any transient failure. */
export class TransientLLMError extends HandledError {
  readonly kind = "stalled";
}

/**
 * Two clocks over one request: an idle timer that every chunk resets (a slow but steady answer is
 * fine; a stalled one is not) and a total cap. Either aborts the request through `signal`, and the
 * reason is kept so the caller reports a timeout rather than a bare abort. The caller's own signal
 * aborts it too.
 */
export class StreamGuard {
  private readonly ctrl = new AbortController();
  private idle: NodeJS.Timeout | undefined;
  private readonly total: NodeJS.Timeout;
  private readonly unlink: () => void;
  fired: TransientLLMError | null = null;

  constructor(
    private readonly idleMs: number,
    totalMs: number,
    outer?: AbortSignal,
  ) {
    this.total = setTimeout(() => this.fire(`no complete answer within ${seconds(totalMs)}`), totalMs);
    const onAbort = () => this.ctrl.abort(outer?.reason);
    outer?.addEventListener("abort", onAbort, { once: true });
    if (outer?.aborted) onAbort();
    this.unlink = () => outer?.removeEventListener("abort", onAbort);
    this.tick();
  }

  get signal(): AbortSignal {
    return this.ctrl.signal;
  }

  /** Progress: restart the idle clock. */
  tick(): void {
    clearTimeout(this.idle);
    this.idle = setTimeout(() => this.fire(`no data from the model for ${seconds(this.idleMs)}`), this.idleMs);
  }

  stop(): void {
    clearTimeout(this.idle);
    clearTimeout(this.total);
    this.unlink();
  }

  private fire(message: string): void {
    this.fired = new TransientLLMError(message);
    this.ctrl.abort(this.fired);
  }
}

const seconds = (ms: number): string => `${Number((ms / 1000).toFixed(2))} s`;

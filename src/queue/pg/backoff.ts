/**
 * How long after a died attempt the next one may start: doubling from `baseMs`, capped at `maxMs`.
 * A worker that died once was probably killed; one that dies again on the same job may be killed by
 * the job (out of memory), and the wait keeps it from taking every worker down in turn.
 */
export interface Backoff {
  baseMs: number;
  maxMs: number;
}

export const DEFAULT_BACKOFF: Backoff = { baseMs: 1_000, maxMs: 60_000 };

/** The wait before attempt `attempt + 1`, after `attempt` attempts have started and died. */
export function backoffMs(attempt: number, b: Backoff = DEFAULT_BACKOFF): number {
  if (attempt <= 0) return 0;
  return Math.min(b.maxMs, b.baseMs * 2 ** (attempt - 1));
}

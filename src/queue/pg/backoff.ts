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

/**
 * How long work may go on after its abort before its lane stops waiting for it. Everything Patchgate
 * runs honours the signal, but one stuck call that does not (a blocked read, a hung syscall) must
 * not hold the session's lane, or `/agent stop`'s cancellation would queue behind it for ever.
 */
export const ABANDON_AFTER_ABORT_MS = 2_000;

/**
 * Settles as `work` does; or, `graceMs` after `signal` aborted, resolves "abandoned" and leaves
 * `work` to finish unawaited (`onLate` hears how it ended). Abandoned work that later writes to the
 * ledger is refused by its optimistic count check, since the cancellation wrote first.
 */
export function settleOrAbandon<T>(
  work: Promise<T>,
  signal: AbortSignal,
  graceMs = ABANDON_AFTER_ABORT_MS,
  onLate: (outcome: unknown) => void = () => {},
): Promise<T | "abandoned"> {
  let timer: NodeJS.Timeout | undefined;
  let abandoned = false;
  const giveUp = new Promise<"abandoned">((resolve) => {
    const start = (): void => {
      timer = setTimeout(() => {
        abandoned = true;
        resolve("abandoned");
      }, graceMs);
    };
    if (signal.aborted) start();
    else signal.addEventListener("abort", start, { once: true });
  });
  work.then(
    (v) => abandoned && onLate(v),
    (e) => abandoned && onLate(e),
  );
  return Promise.race([work, giveUp]).finally(() => clearTimeout(timer));
}

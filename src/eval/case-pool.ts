/**
 * Runs `work` on every item in order, up to `limit` at once, and gives the results in the items'
 * order. An item `alone` says is for runs with nothing else beside it: it starts once every earlier
 * item has ended, and nothing starts until it has ended. A rejected item stops new starts; the ones
 * running are awaited, then the first rejection is thrown.
 */
export async function runPooled<T, R>(items: readonly T[], limit: number, alone: (item: T) => boolean, work: (item: T) => Promise<R>): Promise<R[]> {
  if (!Number.isInteger(limit) || limit < 1) throw new Error(`a pool needs a limit ≥ 1, not ${limit}`);
  const results: R[] = [];
  const running = new Set<Promise<void>>();
  let failure: { error: unknown } | undefined;
  for (const [i, item] of items.entries()) {
    const solo = alone(item);
    while (failure === undefined && running.size >= (solo ? 1 : limit)) await Promise.race(running);
    if (failure !== undefined) break;
    const done: Promise<void> = work(item)
      .then(
        (r) => {
          results[i] = r;
        },
        (error: unknown) => {
          failure ??= { error };
        },
      )
      .finally(() => running.delete(done));
    running.add(done);
    if (solo) await done;
  }
  await Promise.all(running);
  if (failure !== undefined) throw failure.error;
  return results;
}

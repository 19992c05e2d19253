/**
 * Jain's fairness index of what each tenant got: (Σx)² / (n · Σx²), 1 when all got the same, 1/n
 * when one got everything. `fairness` judges the starts per installation in every window of starts,
 * each installation's starts over its max-min fair share of the window (Jain's normalised form): an
 * installation with fewer sessions left than an equal share is owed only those, and the rest of the
 * window is shared among the others.
 */
export function jainIndex(xs: readonly number[]): number {
  if (xs.length === 0) throw new Error("Jain's index of no tenants");
  const sum = xs.reduce((a, b) => a + b, 0);
  const squares = xs.reduce((a, b) => a + b * b, 0);
  return squares === 0 ? 1 : (sum * sum) / (xs.length * squares);
}

/**
 * The index of each full window of `size` consecutive starts: `starts` is the installation of each
 * start in order, `queued` how many sessions each installation had queued at the beginning.
 */
export function windowIndices(starts: readonly string[], queued: ReadonlyMap<string, number>, size: number): number[] {
  const left = new Map(queued);
  const out: number[] = [];
  for (let from = 0; from + size <= starts.length; from += size) {
    const share = fairShares(left, size);
    const got = new Map([...share.keys()].map((id) => [id, 0]));
    for (const id of starts.slice(from, from + size)) {
      if (!got.has(id)) throw new Error(`installation ${id} started a session it had not queued`);
      got.set(id, got.get(id)! + 1);
      left.set(id, left.get(id)! - 1);
    }
    out.push(jainIndex([...got].map(([id, n]) => n / share.get(id)!)));
  }
  return out;
}

/**
 * Max-min fair shares of `size` starts among the installations with sessions left (water-filling):
 * each gets an equal part, capped by what it has left, and what a capped one leaves is shared again.
 */
export function fairShares(left: ReadonlyMap<string, number>, size: number): Map<string, number> {
  const out = new Map<string, number>();
  let open = [...left].filter(([, n]) => n > 0);
  let room = size;
  while (open.length > 0 && room > 1e-9) {
    const part = room / open.length;
    const capped = open.filter(([, n]) => n <= part);
    if (capped.length === 0) {
      for (const [id] of open) out.set(id, part);
      break;
    }
    for (const [id, n] of capped) {
      out.set(id, n);
      room -= n;
    }
    open = open.filter(([, n]) => n > part);
  }
  return out;
}

import { median, ms, type FigureResult } from "./figure.js";

/**
 * Interleaved A/B timing for the bench figures: A then B in every round, so a noisy neighbour slows
 * both alike; the figure is the ratio of the medians, with the spread of the per-round ratios.
 */
async function timed(run: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await run();
  return performance.now() - t;
}

/** `rounds` rounds of (prepare, A, prepare, B); `prepare` is not timed. */
export async function interleaved(
  rounds: number,
  a: () => Promise<unknown>,
  b: () => Promise<unknown>,
  prepare: () => Promise<void> = async () => undefined,
): Promise<{ a: number[]; b: number[] }> {
  const out = { a: [] as number[], b: [] as number[] };
  for (let i = 0; i < rounds; i++) {
    await prepare();
    out.a.push(await timed(a));
    await prepare();
    out.b.push(await timed(b));
  }
  return out;
}

/** The figure of an interleaved run against `goal` (lower is better). */
export function figure(t: { a: number[]; b: number[] }, what: { a: string; b: string; goal: number; note?: string }): FigureResult {
  const ratios = t.a.map((x, i) => x / t.b[i]);
  const ratio = median(t.a) / median(t.b);
  return {
    measured: `${what.a} ${ms(median(t.a))} (min ${ms(Math.min(...t.a))}, max ${ms(Math.max(...t.a))})`,
    baseline: `${what.b} ${ms(median(t.b))} (min ${ms(Math.min(...t.b))}, max ${ms(Math.max(...t.b))})`,
    ratio: Number(ratio.toFixed(3)),
    goal: what.goal,
    met: ratio <= what.goal,
    min: Number(Math.min(...ratios).toFixed(3)),
    median: Number(median(ratios).toFixed(3)),
    max: Number(Math.max(...ratios).toFixed(3)),
    ...(what.note ? { note: what.note } : {}),
  };
}

/**
 * One row of the bench table. Every figure is a number (`ratio`) with a bound (`goal`): a ratio of
 * two sides measured interleaved in one run, or an absolute amount where the goal is absolute.
 * Figure modules return these; bench/table.ts prints them and decides `met` from ratio and goal.
 */
export interface FigureResult {
  /** Human text of the measured side, e.g. "41.2 ms (min 39.0, max 48.1)". */
  measured: string;
  /** Human text of the baseline side; "—" where the goal is absolute. */
  baseline: string;
  /** The number the goal bounds; null when it could not be measured (say why in `note`). */
  ratio: number | null;
  goal: number;
  /** Default "lower": met when ratio ≤ goal. */
  better?: "lower" | "higher";
  /** Ignored: the table recomputes it from ratio and goal, so no module can call itself met. */
  met?: boolean;
  /** Of the ratio (or the absolute amount) over the interleaved rounds. */
  min?: number;
  median?: number;
  max?: number;
  note?: string;
}

export type Figures = Record<string, FigureResult>;

/** A figure that could not be measured here (no bubblewrap, no registry, a module not landed). */
export function notMeasured(reason: string, goal: number, better: "lower" | "higher" = "lower"): FigureResult {
  return { measured: "not measured", baseline: "—", ratio: null, goal, better, note: reason };
}

export function isMet(f: FigureResult): boolean {
  if (f.ratio === null || !Number.isFinite(f.ratio)) return false;
  return (f.better ?? "lower") === "lower" ? f.ratio <= f.goal : f.ratio >= f.goal;
}

export function median(xs: readonly number[]): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

export function percentile(xs: readonly number[], p: number): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

/** min/median/max of a list, for a FigureResult. */
export function spread(xs: readonly number[]): { min: number; median: number; max: number } {
  return { min: Math.min(...xs), median: median(xs), max: Math.max(...xs) };
}

export const ms = (x: number): string => `${x.toFixed(x < 10 ? 2 : 1)} ms`;

import { numberedLine } from "./line-numbers.js";
import { splitLines } from "./text.js";

/**
 * When a search block matches nothing, the model needs to see what the file really says where it
 * meant to edit. We slide a window of the block's height over the file and score each position by
 * line-wise bigram similarity (Dice), which is linear per line and forgiving of small typos and
 * indentation drift, unlike exact or prefix matching.
 */
export interface ClosestRegion {
  start_line: number;
  end_line: number;
  /** 0..1, mean line similarity (whitespace at either end of a line ignored). */
  similarity: number;
  /** The region's lines, numbered like read_file output. */
  text: string;
  /** True when the region equals the search text once all whitespace is collapsed. */
  whitespace_only: boolean;
}

const MAX_SHOWN_LINES = 60;
/**
 * Line comparisons one search may cost (~0.4 s). The work is windows × block height, quadratic in
 * what the model sends, and it runs in Patchgate's own event loop: a 40 000-line file and a
 * 20 000-line search block would otherwise block every session for minutes. Beyond it: no hint.
 */
const MAX_LINE_COMPARISONS = 1_000_000;

function bigrams(s: string): Map<string, number> {
  const m = new Map<string, number>();
  for (let i = 0; i < s.length - 1; i++) {
    const g = s.slice(i, i + 2);
    m.set(g, (m.get(g) ?? 0) + 1);
  }
  return m;
}

function dice(a: string, b: string, ga: Map<string, number>, gb: Map<string, number>): number {
  if (a === b) return 1;
  if (a.length < 2 || b.length < 2) return 0;
  let common = 0;
  for (const [g, n] of ga) common += Math.min(n, gb.get(g) ?? 0);
  return (2 * common) / (a.length - 1 + (b.length - 1));
}

const squash = (s: string) => s.replace(/\s+/g, "");

export function closestRegion(content: string, search: string): ClosestRegion | null {
  const fileLines = splitLines(content);
  const wanted = splitLines(search);
  if (fileLines.length === 0 || wanted.length === 0) return null;
  const height = Math.min(wanted.length, fileLines.length);
  if ((fileLines.length - height + 1) * height > MAX_LINE_COMPARISONS) return null;
  const fileTrim = fileLines.map((l) => l.trim());
  const fileGrams = fileTrim.map(bigrams);
  const wantTrim = wanted.map((l) => l.trim());
  const wantGrams = wantTrim.map(bigrams);

  let best = 0;
  let bestScore = -1;
  for (let start = 0; start + height <= fileLines.length; start++) {
    let score = 0;
    for (let i = 0; i < height; i++) score += dice(fileTrim[start + i], wantTrim[i], fileGrams[start + i], wantGrams[i]);
    if (score > bestScore) {
      bestScore = score;
      best = start;
    }
  }
  const region = fileLines.slice(best, best + height);
  const shown = region.slice(0, MAX_SHOWN_LINES).map((l, i) => numberedLine(best + i + 1, l));
  if (region.length > MAX_SHOWN_LINES) shown.push(`… ${region.length - MAX_SHOWN_LINES} more lines`);
  return {
    start_line: best + 1,
    end_line: best + height,
    similarity: Math.round((bestScore / wanted.length) * 100) / 100,
    text: shown.join("\n"),
    whitespace_only: squash(region.join("\n")) === squash(wanted.join("\n")),
  };
}

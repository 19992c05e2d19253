import { diffLines } from "diff";

/** A finding shows at most this many diff lines: enough to see it, short enough to read in a comment. */
export const MAX_SHOWN_LINES = 10;

/**
 * Beyond this many changed lines the exact diff costs more than what it shows is worth (a rewritten
 * snapshot of thousands of lines): the lines then come from comparing the two sides as sets.
 */
const MAX_EDIT_LENGTH = 400;

function lines(text: string): string[] {
  return text === "" ? [] : text.replace(/\n$/, "").split("\n");
}

/** The lines of `xs` not matched, one for one, by a line of `other`. */
function unmatched(xs: readonly string[], other: readonly string[]): string[] {
  const left = new Map<string, number>();
  for (const x of other) left.set(x, (left.get(x) ?? 0) + 1);
  return xs.filter((x) => {
    const n = left.get(x) ?? 0;
    left.set(x, n - 1);
    return n <= 0;
  });
}

/** Lines missing from the other side: enough to show what changed, without the order. */
function setDiff(before: string, after: string): string[] {
  const [was, now] = [lines(before), lines(after)];
  return [...unmatched(was, now).map((l) => `-${l}`), ...unmatched(now, was).map((l) => `+${l}`)];
}

/** The lines removed (`-…`) and added (`+…`) between two texts, in order. */
export function changedLines(before: string | null, after: string | null): string[] {
  const parts = diffLines(before ?? "", after ?? "", { maxEditLength: MAX_EDIT_LENGTH });
  if (parts === undefined) return setDiff(before ?? "", after ?? "");
  const out: string[] = [];
  for (const part of parts) {
    if (!part.added && !part.removed) continue;
    const sign = part.added ? "+" : "-";
    for (const line of part.value.replace(/\n$/, "").split("\n")) out.push(`${sign}${line}`);
  }
  return out;
}

/** The changed lines that match `pattern`, capped. */
export function linesShowing(before: string | null, after: string | null, pattern: RegExp): string[] {
  const test = new RegExp(pattern.source, pattern.flags.replace("g", ""));
  return changedLines(before, after)
    .filter((line) => test.test(line.slice(1)))
    .slice(0, MAX_SHOWN_LINES)
    .map(shorten);
}

/** A minified line is still one line; it need not be a screen. */
function shorten(line: string): string {
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

export function countMatches(text: string, pattern: RegExp): number {
  const global = new RegExp(pattern.source, pattern.flags.includes("g") ? pattern.flags : `${pattern.flags}g`);
  return text.match(global)?.length ?? 0;
}

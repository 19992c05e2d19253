import { diffLines } from "diff";

/** A finding shows at most this many diff lines: enough to see it, short enough to read in a comment. */
export const MAX_SHOWN_LINES = 10;

/** The lines removed (`-…`) and added (`+…`) between two texts, in order. */
export function changedLines(before: string | null, after: string | null): string[] {
  const out: string[] = [];
  for (const part of diffLines(before ?? "", after ?? "")) {
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

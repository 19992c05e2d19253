/**
 * Which lines of a file the model has been shown since it last changed, as sorted, disjoint,
 * inclusive 1-based ranges. A page read adds its range; a change by someone else starts over; the
 * agent's own edit carries what it had seen across the lines it moved, plus what it wrote.
 */
export type LineRange = [number, number];

export function addRange(ranges: readonly LineRange[], add: LineRange): LineRange[] {
  const all = [...ranges, add].filter(([a, b]) => a <= b).sort((x, y) => x[0] - y[0]);
  const merged: LineRange[] = [];
  for (const [a, b] of all) {
    const last = merged[merged.length - 1];
    if (last && a <= last[1] + 1) last[1] = Math.max(last[1], b);
    else merged.push([a, b]);
  }
  return merged;
}

/** The parts of `need` not inside `seen`. */
export function unseen(seen: readonly LineRange[], need: readonly LineRange[]): LineRange[] {
  let missing: LineRange[] = [];
  for (const [from, to] of need) {
    let at = from;
    for (const [a, b] of seen) {
      if (b < at || a > to) continue;
      if (a > at) missing = addRange(missing, [at, a - 1]);
      at = Math.max(at, b + 1);
      if (at > to) break;
    }
    if (at <= to) missing = addRange(missing, [at, to]);
  }
  return missing;
}

export function formatRanges(ranges: readonly LineRange[]): string {
  return ranges.map(([a, b]) => (a === b ? `${a}` : `${a}–${b}`)).join(", ");
}

/** Lines of a text as read_file counts them: a final newline does not start another line. */
export function lineCount(content: string): number {
  if (content === "") return 0;
  let n = 1;
  for (let i = content.indexOf("\n"); i !== -1; i = content.indexOf("\n", i + 1)) n++;
  return content.endsWith("\n") ? n - 1 : n;
}

/** One replaced region of an edit: its lines in the old content and in the new. */
export interface EditedRegion {
  old: LineRange;
  new: LineRange;
}

/**
 * What the model knows of a file after its own edit: the lines it had seen, moved by the lines each
 * region added or removed, and every line it wrote. `regions` are in ascending order and disjoint.
 */
export function seenAfterEdit(seen: readonly LineRange[], regions: readonly EditedRegion[]): LineRange[] {
  let out: LineRange[] = [];
  for (const [a, b] of seen) {
    let shift = 0;
    let at = a;
    for (const r of regions) {
      if (r.old[1] < at) {
        shift += r.new[1] - r.new[0] - (r.old[1] - r.old[0]);
        continue;
      }
      if (r.old[0] > b) break;
      if (r.old[0] > at) out = addRange(out, [at + shift, r.old[0] - 1 + shift]);
      at = r.old[1] + 1;
      shift += r.new[1] - r.new[0] - (r.old[1] - r.old[0]);
      if (at > b) break;
    }
    if (at <= b) out = addRange(out, [at + shift, b + shift]);
  }
  for (const r of regions) out = addRange(out, r.new);
  return out;
}

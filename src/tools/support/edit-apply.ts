import type { EditedRegion } from "../../session/seen-lines.js";
import type { ToolError } from "../../session/types.js";
import { closestRegion } from "./closest-region.js";
import { looksNumbered, withoutReadNumbers } from "./read-numbers.js";

/**
 * Exact search/replace blocks, all or nothing. Every block is matched against the file as it is now
 * (so line numbers in errors are the ones the model read), must match exactly once, and blocks may
 * not overlap; only then are all replacements made.
 */
export interface EditBlock {
  search: string;
  replace: string;
}

/** `regions`: the lines each block replaced and the lines its replacement fills, in file order. */
export type EditOutcome = { ok: true; content: string; regions: EditedRegion[] } | { ok: false; error: ToolError };

/** Matches named by line in an error; more would only flood the model's context. */
const MAX_LISTED_MATCHES = 20;

/**
 * Line numbers of ascending offsets, in one pass. Counting from the top for each match was quadratic:
 * a search for `"` in a lockfile (10⁵ matches × 10⁴ lines) blocked Patchgate's event loop for minutes.
 */
function linesOf(content: string, indices: readonly number[]): number[] {
  const lines: number[] = [];
  let line = 1;
  let nl = content.indexOf("\n");
  for (const index of indices) {
    while (nl !== -1 && nl < index) {
      line++;
      nl = content.indexOf("\n", nl + 1);
    }
    lines.push(line);
  }
  return lines;
}

/** Every start index of `needle`, overlapping ones included (they make a match just as ambiguous). */
function occurrences(content: string, needle: string): number[] {
  const found: number[] = [];
  for (let i = content.indexOf(needle); i !== -1; i = content.indexOf(needle, i + 1)) found.push(i);
  return found;
}

/** Models write `\n`; a CRLF file would otherwise never match. */
function toFileEol(text: string, crlf: boolean): string {
  return crlf && !text.includes("\r") ? text.replace(/\n/g, "\r\n") : text;
}

function badPatch(message: string, details: Record<string, unknown>): EditOutcome {
  return { ok: false, error: { code: "bad_patch", message: `${message} No edit was applied.`, details } };
}

export function applyEdits(rel: string, content: string, edits: readonly EditBlock[]): EditOutcome {
  const crlf = content.includes("\r\n");
  const spans: { start: number; end: number; replace: string; n: number }[] = [];
  for (const [i, edit] of edits.entries()) {
    const n = i + 1;
    let search = toFileEol(edit.search, crlf);
    let replace = toFileEol(edit.replace, crlf);
    let found = occurrences(content, search);
    const meant = found.length === 0 ? withoutReadNumbers(content, edit.search, edit.replace) : null;
    if (meant) {
      search = meant.search;
      replace = toFileEol(meant.replace, crlf);
      found = [meant.start];
    }
    if (found.length === 0) {
      const closest = closestRegion(content, edit.search);
      const where = closest
        ? ` The closest region is lines ${closest.start_line}-${closest.end_line} (similarity ${closest.similarity}${closest.whitespace_only ? ", differs only in whitespace" : ""}); copy the exact text from there and retry.`
        : ` ${rel} is empty.`;
      const numbers = looksNumbered(edit.search)
        ? ' Its lines start with read_file\'s line numbers ("<n>│"), which are not part of the file and did not match those lines: leave them out.'
        : "";
      return badPatch(`edit ${n} of ${edits.length}: the search text was not found in ${rel}.${numbers}${where}`, { edit: n, matches: 0, closest });
    }
    if (found.length > 1) {
      const lines = linesOf(content, found.slice(0, MAX_LISTED_MATCHES));
      const more = found.length > lines.length ? ", …" : "";
      return badPatch(
        `edit ${n} of ${edits.length}: the search text matches ${found.length} times in ${rel} (at lines ${lines.join(", ")}${more}); include more surrounding lines so it matches exactly once.`,
        { edit: n, matches: found.length, match_lines: lines },
      );
    }
    spans.push({ start: found[0], end: found[0] + search.length, replace, n });
  }
  spans.sort((a, b) => a.start - b.start);
  for (let k = 1; k < spans.length; k++) {
    if (spans[k].start < spans[k - 1].end) {
      const [a, b] = [spans[k - 1].n, spans[k].n].sort((x, y) => x - y);
      return badPatch(`edits ${a} and ${b} overlap in ${rel}; merge them into one block.`, { edit: b, overlaps: a });
    }
  }
  // Right to left, so earlier offsets stay valid.
  let out = content;
  for (const s of [...spans].reverse()) out = out.slice(0, s.start) + s.replace + out.slice(s.end);
  return { ok: true, content: out, regions: regionsOf(content, out, spans) };
}

/** Line ranges of the replaced text (old content) and of its replacement (new content); an empty replacement fills none. */
function regionsOf(before: string, after: string, spans: readonly { start: number; end: number; replace: string }[]): EditedRegion[] {
  let moved = 0;
  const newStarts = spans.map((s) => {
    const at = s.start + moved;
    moved += s.replace.length - (s.end - s.start);
    return at;
  });
  const oldLines = linesOf(
    before,
    spans.flatMap((s) => [s.start, s.end - 1]),
  );
  const newLines = linesOf(
    after,
    spans.flatMap((s, i) => [newStarts[i]!, newStarts[i]! + Math.max(0, s.replace.length - 1)]),
  );
  return spans.map((s, i) => ({
    old: [oldLines[2 * i]!, oldLines[2 * i + 1]!],
    new: [newLines[2 * i]!, s.replace === "" ? newLines[2 * i]! - 1 : newLines[2 * i + 1]!],
  }));
}

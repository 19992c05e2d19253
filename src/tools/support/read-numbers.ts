import { splitNumbered } from "./line-numbers.js";

/**
 * read_file shows each line as "<n>│<text>" (line-numbers.ts), and models often copy those
 * prefixes into an edit's search text. Such a block can never match. It is taken as meant only when it cannot mean anything
 * else: every line carries a number, the numbers are consecutive, and without them the text is
 * exactly the file's lines at those numbers. The replace text loses its prefixes only when every one
 * of its lines has one too (a model that copied them into search usually did so in replace).
 */

/** The lines of `text` without their read_file prefixes and the first number, or null if any line lacks one. */
function unnumbered(text: string): { first: number; lines: string[] } | null {
  const lines = text.split("\n");
  // A block copied up to and including a line end has an empty last piece: it carries no number.
  const numbered = lines.at(-1) === "" ? lines.slice(0, -1) : lines;
  if (numbered.length === 0) return null;
  const stripped: string[] = [];
  let first = 0;
  for (const [i, line] of numbered.entries()) {
    const m = splitNumbered(line);
    if (!m) return null;
    if (i === 0) first = m.n;
    else if (m.n !== first + i) return null;
    stripped.push(m.text);
  }
  if (numbered.length < lines.length) stripped.push("");
  return { first, lines: stripped };
}

/** Start offset of line `n` (1-based) of `content`, or -1 when it has fewer lines. */
function lineStart(content: string, n: number): number {
  let at = 0;
  for (let line = 1; line < n; line++) {
    at = content.indexOf("\n", at);
    if (at === -1) return -1;
    at += 1;
  }
  return at;
}

/** Whether the search text looks copied from read_file's output (for the error's hint). */
export function looksNumbered(search: string): boolean {
  return unnumbered(search) !== null;
}

/**
 * The block as the model meant it, when `search` is read_file output of `content`: its text in the
 * file's line ends, where it starts, and the replace text. Null when it is not, or the lines there differ.
 */
export function withoutReadNumbers(content: string, search: string, replace: string): { search: string; replace: string; start: number } | null {
  const s = unnumbered(search);
  if (!s || s.first < 1) return null;
  const eol = content.includes("\r\n") ? "\r\n" : "\n";
  const text = s.lines.join(eol);
  const start = lineStart(content, s.first);
  if (start === -1 || text === "" || !content.startsWith(text, start)) return null;
  const r = unnumbered(replace);
  return { search: text, replace: r ? r.lines.join(eol) : replace, start };
}

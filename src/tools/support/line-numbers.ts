/**
 * How read_file numbers the lines it shows: the number right-aligned, then `│` (U+2502), then the
 * line exactly as it is, e.g. `  975│\tif (x) {`. Not a tab: file text has tabs of its own, and a
 * tab after a number cannot be told from one that starts the line. `│` after leading digits is never
 * read as content, and the model is told so in read_file's description.
 */
const LINE_MARK = "│";

/** One shown line, its number padded to `width` digits. */
export function numberedLine(n: number, text: string, width = 0): string {
  return `${String(n).padStart(width)}${LINE_MARK}${text}`;
}

/**
 * A shown line's number and text, or null. The tab form is read_file's before version 3, still in
 * older ledgers' results a model may copy from.
 */
export function splitNumbered(line: string): { n: number; text: string } | null {
  const m = /^ *(\d+)(?:│|\t)/.exec(line);
  return m ? { n: Number(m[1]), text: line.slice(m[0].length) } : null;
}

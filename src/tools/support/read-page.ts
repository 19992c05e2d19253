import { numberedLine } from "./line-numbers.js";

/**
 * One page of read_file: lines from `start`, up to `endLine` if asked, never more than a page of
 * lines or bytes (about 8k tokens), whatever the model asks for, so that a result is never cut later
 * on its way to the model. A line longer than a whole page is shown cut, and does not count as shown.
 */
export const READ_PAGE_LINES = 300;
export const READ_PAGE_BYTES = 32 * 1024;

export interface Page {
  content: string;
  /** Last line included (possibly cut). */
  end: number;
  /** Last line shown whole: what counts as read. */
  shownTo: number;
  /** Fewer lines than asked for (with end_line) or than a page holds, because of the byte bound. */
  cut: boolean;
  note: string;
}

export function pageOf(lines: readonly string[], start: number, endLine: number | undefined): Page {
  const total = lines.length;
  const wanted = Math.min(endLine ?? total, total);
  const last = Math.min(wanted, start + READ_PAGE_LINES - 1);
  const out: string[] = [];
  let bytes = 0;
  let end = start - 1;
  let longLine: { n: number; bytes: number } | null = null;
  const width = String(last).length;
  for (let n = start; n <= last; n++) {
    const line = lines[n - 1]!;
    const size = Buffer.byteLength(line) + 1;
    if (bytes + size > READ_PAGE_BYTES && out.length > 0) break;
    end = n;
    if (size > READ_PAGE_BYTES) {
      longLine = { n, bytes: size - 1 };
      out.push(
        numberedLine(
          n,
          Buffer.from(line)
            .subarray(0, READ_PAGE_BYTES)
            .toString("utf8")
            .replace(/\uFFFD+$/, ""),
          width,
        ),
      );
      break;
    }
    bytes += size;
    out.push(numberedLine(n, line, width));
  }
  const shownTo = longLine ? end - 1 : end;
  const range = total === 0 ? "the file is empty" : `lines ${start}–${end} of ${total}`;
  const next = end < total ? `; next page: read_file with start_line ${end + 1}` : total === 0 ? "" : " (end of file)";
  const long = longLine
    ? `. Line ${longLine.n} is ${longLine.bytes} bytes long: only its first ${READ_PAGE_BYTES / 1024} KB are shown and it does not count as read (search_code finds text inside it)`
    : "";
  return { content: out.join("\n"), end, shownTo, cut: longLine !== null || end < (endLine !== undefined ? wanted : last), note: `${range}${next}${long}` };
}

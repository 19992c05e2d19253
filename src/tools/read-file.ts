import { z } from "zod";
import { contentHash } from "../policy/edit-context.js";
import type { ToolError } from "../session/types.js";
import { resolveForRead, type ToolPath } from "./support/paths.js";
import { defineTool } from "./define-tool.js";
import { readCalls, READS, type Located } from "./read-tool.js";
import { isBinary, isToolError, notFound, readRegularFile, splitLines } from "./support/text.js";
import { type ToolContext, type ToolOutcome, fail, ok } from "./tool.js";
import { pageOf, READ_PAGE_BYTES, READ_PAGE_LINES } from "./support/read-page.js";

// One call shows one page (read-page.ts); the note says which lines and how to get the next page.
export { READ_PAGE_BYTES, READ_PAGE_LINES } from "./support/read-page.js";

const DESCRIPTION = `Read a text file of the repository, one page at a time. Returns the lines as text, each after its number and a "│" mark ("  975│<text>"), total_lines, and a note "lines a–b of total" saying how to get the next page.
- Everything after the first "│" of a shown line is the file's line exactly (tabs, quotes, backslashes as they are); the number and the mark are not part of the file: leave them out of edit_file's search and replace.
- path is relative to the repository root.
- A page is at most ${READ_PAGE_LINES} lines (${READ_PAGE_BYTES / 1024} KB); pass start_line (and end_line, inclusive) to choose which lines, e.g. next_start_line from the previous page.
- Binary files are refused.
- Only the lines you were shown count as read: edit_file needs the lines its search texts cover, write_file on an existing file needs every page.`;

const input = z.strictObject({
  path: z.string().min(1).describe("File path relative to the repository root, e.g. `src/index.ts`."),
  start_line: z.number().int().min(1).optional().describe("First line to return (1-based). Default 1."),
  end_line: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe(`Last line to return, inclusive. Default and at most: one page (${READ_PAGE_LINES} lines) on from start_line.`),
});
type Input = z.infer<typeof input>;

function badRange(message: string): ToolError {
  return { code: "invalid_arguments", message };
}

/** Everything refused before the file is opened; shared by precheck and execute. */
async function locate(args: Input, ctx: ToolContext): Promise<ToolPath> {
  if (args.start_line !== undefined && args.end_line !== undefined && args.start_line > args.end_line) {
    return { ok: false, error: badRange(`start_line ${args.start_line} is after end_line ${args.end_line}.`) };
  }
  return resolveForRead(ctx, args.path);
}

/** One page of the file, and the lines shown recorded as read. */
async function showPage(args: Input, ctx: ToolContext, p: Located): Promise<ToolOutcome> {
  const buf = await readRegularFile(p.abs, p.rel);
  if (buf === null) return { result: { ok: false, error: notFound(p.rel) } };
  if (isToolError(buf)) return { result: { ok: false, error: buf } };
  if (isBinary(buf)) return { result: fail("binary_file", `${p.rel} is a binary file; read_file only shows text.`, { path: p.rel, bytes: buf.length }) };

  const lines = splitLines(buf.toString("utf8"));
  const total = lines.length;
  const start = args.start_line ?? 1;
  if (total > 0 && start > total) return { result: { ok: false, error: badRange(`start_line ${start} is past the end of ${p.rel} (${total} lines).`) } };
  const page = pageOf(lines, start, args.end_line);
  const data = {
    path: p.rel,
    note: page.note,
    start_line: start,
    end_line: page.end,
    total_lines: total,
    content: page.content,
    ...(page.end < total ? { next_start_line: page.end + 1 } : {}),
  };
  // The whole file's hash, even for a page: the edit-context gate compares whole files; `lines` is what was shown.
  return {
    result: ok(data, page.cut),
    events: [{ type: "file_read", path: p.rel, hash: contentHash(buf), lines: [start, page.shownTo], totalLines: total }],
  };
}

export const readFileTool = defineTool({
  name: "read_file",
  version: "3",
  description: DESCRIPTION,
  input,
  effect: READS,
  modes: ["plan", "execute"],
  ...readCalls({ locate, read: showPage }),
});

import { z } from "zod";
import { contentHash } from "../policy/index.js";
import type { ToolError } from "../session/types.js";
import { lexicalRel, resolveForRead, type ToolPath } from "./paths.js";
import { isBinary, isToolError, notFound, readRegularFile, splitLines } from "./text.js";
import { defineTool, fail, ok, type ToolContext } from "./tool.js";

/** Above this a whole-file read is refused (ask for a range); a range's output is cut here too. */
export const READ_MAX_BYTES = 256 * 1024;

const DESCRIPTION = `Read a text file of the repository. Returns its lines numbered from 1 ("<n>\\t<text>") and total_lines.
- path is relative to the repository root.
- Files over 256 KB must be read in parts: pass start_line and end_line (inclusive).
- Binary files are refused.
- You must read a file (after its last change) before write_file or edit_file may change it.`;

const input = z.strictObject({
  path: z.string().min(1).describe("File path relative to the repository root, e.g. `src/index.ts`."),
  start_line: z.number().int().min(1).optional().describe("First line to return (1-based). Default 1."),
  end_line: z.number().int().min(1).optional().describe("Last line to return, inclusive. Default: the last line."),
});

function badRange(message: string): ToolError {
  return { code: "invalid_arguments", message };
}

/** Everything refused before the file is opened; shared by precheck and execute. */
async function locate(args: z.infer<typeof input>, ctx: ToolContext): Promise<ToolPath> {
  if (args.start_line !== undefined && args.end_line !== undefined && args.start_line > args.end_line) {
    return { ok: false, error: badRange(`start_line ${args.start_line} is after end_line ${args.end_line}.`) };
  }
  return resolveForRead(ctx, args.path);
}

export const readFileTool = defineTool({
  name: "read_file",
  version: "1",
  description: DESCRIPTION,
  input,
  risk: "read",
  mutatesWorkspace: false,
  idempotent: true,
  modes: ["plan", "execute"],
  async precheck(args, ctx) {
    const p = await locate(args, ctx);
    return p.ok ? null : p.error;
  },
  request(args) {
    return { kind: "read", tool: "read_file", path: lexicalRel(args.path) };
  },
  async execute(args, ctx) {
    const p = await locate(args, ctx);
    if (!p.ok) return { result: { ok: false, error: p.error } };
    const buf = await readRegularFile(p.abs, p.rel);
    if (buf === null) return { result: { ok: false, error: notFound(p.rel) } };
    if (isToolError(buf)) return { result: { ok: false, error: buf } };
    if (isBinary(buf)) return { result: fail("binary_file", `${p.rel} is a binary file; read_file only shows text.`, { path: p.rel, bytes: buf.length }) };

    const lines = splitLines(buf.toString("utf8"));
    const total = lines.length;
    const ranged = args.start_line !== undefined || args.end_line !== undefined;
    if (!ranged && buf.length > READ_MAX_BYTES) {
      return {
        result: fail(
          "file_too_large",
          `${p.rel} is ${buf.length} bytes (${total} lines), above the ${READ_MAX_BYTES / 1024} KB limit for a whole-file read. Call read_file again with start_line and end_line.`,
          { path: p.rel, bytes: buf.length, total_lines: total },
        ),
      };
    }
    const start = args.start_line ?? 1;
    if (total > 0 && start > total) return { result: { ok: false, error: badRange(`start_line ${start} is past the end of ${p.rel} (${total} lines).`) } };

    // A range is still capped, at a line boundary; the model continues from next_start_line.
    const last = Math.min(args.end_line ?? total, total);
    const out: string[] = [];
    let bytes = 0;
    let end = start - 1;
    for (let n = start; n <= last; n++) {
      bytes += Buffer.byteLength(lines[n - 1]) + 1;
      if (bytes > READ_MAX_BYTES && out.length > 0) break;
      out.push(`${n}\t${lines[n - 1]}`);
      end = n;
    }
    const truncated = end < last;
    const data = { path: p.rel, start_line: start, end_line: end, total_lines: total, content: out.join("\n"), ...(truncated ? { next_start_line: end + 1 } : {}) };
    // The whole file's hash, even for a range: the edit-context gate compares whole files.
    return { result: ok(data, truncated), events: [{ type: "file_read", path: p.rel, hash: contentHash(buf) }] };
  },
});

import { stat } from "node:fs/promises";
import { z } from "zod";
import type { ToolError } from "../session/types.js";
import { specialKind, type WalkEntry } from "../workspace/tree-walk.js";
import { walkForTool } from "./support/bounded-walk.js";
import { REGEX_BUDGET_MS, regexLineMatcher, type LineMatcher } from "./support/regex-lines.js";
import { resolveForRead, type ToolPath } from "./support/paths.js";
import { defineTool } from "./define-tool.js";
import { readCalls, READS, type Located } from "./read-tool.js";
import { isBinary, isToolError, notFound, readRegularFile, specialFile, splitLines } from "./support/text.js";
import { type ToolContext, type ToolOutcome, ok } from "./tool.js";

const SEARCH_DEFAULT_MAX = 100;
const SEARCH_HARD_MAX = 1000;
/** Larger files are generated or data; skipping them keeps a search fast. */
const SEARCH_MAX_FILE_BYTES = 1024 * 1024;
/** A regex only sees this much of a line: bounds the cost of a pathological pattern on minified code. */
const REGEX_LINE_CHARS = 2000;
const SHOWN_LINE_CHARS = 300;

const DESCRIPTION = `Search the repository's text files for a string, line by line. Returns matches as "path:line:text".
- Literal and case-sensitive by default; set regex=true for a JavaScript regular expression.
- Files ignored by .gitignore, binary files, files over 1 MB and special files (FIFOs, sockets, devices) are skipped.
- path limits the search to a directory or one file.
- At most max_results matches (default ${SEARCH_DEFAULT_MAX}); truncated=true means there are more: narrow the query or the path.`;

const input = z.strictObject({
  query: z.string().min(1).describe("Text to find, or a JavaScript regular expression when regex is true."),
  regex: z.boolean().optional().describe("Treat query as a regular expression. Default false (literal text)."),
  path: z.string().min(1).optional().describe("Directory or file to search, relative to the repository root. Default: everything."),
  max_results: z
    .number()
    .int()
    .min(1)
    .max(SEARCH_HARD_MAX)
    .optional()
    .describe(`Maximum matches to return (1-${SEARCH_HARD_MAX}, default ${SEARCH_DEFAULT_MAX}).`),
});
type Input = z.infer<typeof input>;

function matcher(args: Input): LineMatcher | ToolError {
  if (!args.regex) return (lines) => lines.flatMap((line, i) => (line.includes(args.query) ? [i] : []));
  try {
    return regexLineMatcher(new RegExp(args.query), REGEX_LINE_CHARS);
  } catch (err) {
    return {
      code: "invalid_arguments",
      message: `query is not a valid regular expression: ${(err as Error).message}. Fix it, or search literally with regex=false.`,
    };
  }
}

function tooSlow(query: string): ToolError {
  return {
    code: "search_timeout",
    message: `the regular expression ${JSON.stringify(query)} ran for more than ${REGEX_BUDGET_MS / 1000} s (it backtracks too much). Simplify it (no nested quantifiers such as (a+)+), narrow path, or search literally with regex=false.`,
  };
}

async function locate(args: Input, ctx: ToolContext): Promise<ToolPath> {
  const m = matcher(args);
  if (typeof m !== "function") return { ok: false, error: m };
  return resolveForRead(ctx, args.path ?? ".");
}

/** The matching lines under the located path, file by file, until `max_results` or the time budget. */
async function searchTree(args: Input, ctx: ToolContext, p: Located): Promise<ToolOutcome> {
  const test = matcher(args) as LineMatcher;
  const st = await stat(p.abs).catch(() => null);
  if (st === null) return { result: { ok: false, error: notFound(p.rel) } };
  const kind = specialKind(st);
  if (kind) return { result: { ok: false, error: specialFile(p.rel, kind) } };
  const start = p.rel === "." ? "" : p.rel;

  const max = args.max_results ?? SEARCH_DEFAULT_MAX;
  const matches: string[] = [];
  let filesSearched = 0;
  let truncated = false;
  let slow = false;
  // false = stop the walk: the cap is reached or the pattern took too long.
  const searchOne = async (f: WalkEntry): Promise<boolean> => {
    if (f.symlink) return true; // its target may be outside the workspace
    const fst = await stat(f.abs).catch(() => null);
    if (fst === null || !fst.isFile() || fst.size > SEARCH_MAX_FILE_BYTES) return true;
    const buf = await readRegularFile(f.abs, f.rel);
    if (buf === null || isToolError(buf) || isBinary(buf)) return true;
    filesSearched++;
    const lines = splitLines(buf.toString("utf8"));
    const hits = test(lines);
    if (hits === null) {
      slow = true;
      return false;
    }
    for (const i of hits) {
      if (matches.length === max) {
        truncated = true;
        return false;
      }
      const text = lines[i].length > SHOWN_LINE_CHARS ? `${lines[i].slice(0, SHOWN_LINE_CHARS)}…` : lines[i];
      matches.push(`${f.rel}:${i + 1}:${text}`);
    }
    return true;
  };
  // A single file is searched as named; a directory is walked with the ignore rules.
  if (!st.isDirectory()) await searchOne({ rel: p.rel, abs: p.abs, symlink: false });
  else {
    const walk = await walkForTool(p.root, start, ctx.signal, searchOne);
    if (!walk.ok) return { result: { ok: false, error: walk.error } };
  }
  if (slow) return { result: { ok: false, error: tooSlow(args.query) } };
  const data = { query: args.query, regex: args.regex ?? false, matches, files_searched: filesSearched, truncated };
  return { result: ok(data, truncated) };
}

export const searchCodeTool = defineTool({
  name: "search_code",
  version: "1",
  description: DESCRIPTION,
  input,
  effect: READS,
  modes: ["plan", "execute"],
  ...readCalls({ locate, read: searchTree }),
});

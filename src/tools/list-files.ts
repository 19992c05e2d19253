import { stat } from "node:fs/promises";
import { z } from "zod";
import { specialKind } from "../workspace/tree-walk.js";
import { walkForTool } from "./support/bounded-walk.js";
import { resolveForRead, type ToolPath } from "./support/paths.js";
import { defineTool } from "./define-tool.js";
import { readCalls, READS, type Located } from "./read-tool.js";
import { notFound, specialFile } from "./support/text.js";
import { type ToolContext, type ToolOutcome, ok } from "./tool.js";
import { TreeCounter } from "./support/tree-summary.js";

const LIST_DEFAULT_MAX = 500;
const LIST_HARD_MAX = 2000;

const DESCRIPTION = `List the repository's files (recursively) under a directory, the way git sees them: files matched by .gitignore are hidden, and so is .git.
- path is a directory relative to the repository root; omit it for the whole repository.
- At most \`max\` paths are returned (default ${LIST_DEFAULT_MAX}). A larger tree starts with \`directories\`: each directory one level down with its file count, and a note on how to narrow (list one of them as path).
- Symlinks are listed (and named again in \`symlinks\`) but not followed.
- Special files (FIFOs, sockets, devices) and symlinks to them are not listed; \`skipped_special\` names them.`;

const input = z.strictObject({
  path: z.string().min(1).optional().describe("Directory relative to the repository root. Default: the repository root."),
  max: z.number().int().min(1).max(LIST_HARD_MAX).optional().describe(`Maximum number of paths to return (1-${LIST_HARD_MAX}, default ${LIST_DEFAULT_MAX}).`),
});
type Input = z.infer<typeof input>;

async function locate(args: Input, ctx: ToolContext): Promise<ToolPath> {
  return resolveForRead(ctx, args.path ?? ".");
}

function summaryOf(counter: TreeCounter, listed: number, rel: string) {
  const total = counter.complete ? `${counter.total} files` : `more than ${counter.total} files (counting stopped there)`;
  const where = rel === "." ? "the repository" : rel;
  return {
    total_files: counter.complete ? counter.total : `>${counter.total}`,
    note: `${where} holds ${total}; the first ${listed} are listed after this summary of its directories. To narrow, call list_files with one of these directories as path (or search_code to find a name).`,
    ...counter.directories(),
  };
}

/** The paths under the located directory, with a summary when there are more than `max`. */
async function listTree(args: Input, ctx: ToolContext, p: Located): Promise<ToolOutcome> {
  const st = await stat(p.abs).catch(() => null);
  if (st === null) return { result: { ok: false, error: notFound(p.rel) } };
  const kind = specialKind(st);
  if (kind) return { result: { ok: false, error: specialFile(p.rel, kind) } };
  const start = p.rel === "." ? "" : p.rel;
  if (!st.isDirectory()) return { result: ok({ path: p.rel, files: [start], truncated: false }) };

  const max = args.max ?? LIST_DEFAULT_MAX;
  const files: string[] = [];
  const symlinks: string[] = [];
  const counter = new TreeCounter(start);
  const walk = await walkForTool(p.root, start, ctx.signal, (entry) => {
    // Past the cap the walk goes on only to count, so the summary covers the whole tree.
    if (files.length < max) {
      files.push(entry.rel);
      if (entry.symlink) symlinks.push(entry.rel);
    }
    return counter.add(entry.rel);
  });
  if (!walk.ok) return { result: { ok: false, error: walk.error } };
  const truncated = counter.total > files.length;
  const special = walk.skipped.length > 0 ? { skipped_special: walk.skipped } : {};
  const summary = truncated ? summaryOf(counter, files.length, p.rel) : {};
  const data = { path: p.rel, ...summary, files, ...(symlinks.length > 0 ? { symlinks } : {}), ...special, truncated };
  return { result: ok(data, truncated) };
}

export const listFilesTool = defineTool({
  name: "list_files",
  version: "2",
  description: DESCRIPTION,
  input,
  effect: READS,
  modes: ["plan", "execute"],
  ...readCalls({ locate, read: listTree }),
});

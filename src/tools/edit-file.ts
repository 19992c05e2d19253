import { z } from "zod";
import { checkLinesSeen, contentHash } from "../policy/edit-context.js";
import { seenAfterEdit, type EditedRegion } from "../session/seen-lines.js";
import type { ToolError } from "../session/types.js";
import { applyEdits } from "./support/edit-apply.js";
import { executableWrite, executableWriteRefusal } from "./support/executable-write.js";
import { lexicalRel } from "./support/paths.js";
import { filePatch, notFound, writeRegularFile } from "./support/text.js";
import { defineTool } from "./define-tool.js";
import { capOutput, PREVIEW_BYTES } from "./output-cap.js";
import { noChange, ok, type ToolContext } from "./tool.js";
import { writeTarget } from "./write-file.js";

const DESCRIPTION = `Change part of an existing file with exact search/replace blocks.
- Each block's search text must appear exactly once in the file's current content, character for character (indentation included). Include enough surrounding lines to make it unique.
- Blocks are applied together or not at all; they must not overlap.
- If a block does not match, the error shows the closest region with line numbers: copy the exact text from it and retry.
- The lines your search texts cover must have been shown to you by read_file after the file's last change (edit_without_read otherwise, naming the lines to read).
- To create a file, use write_file.`;

const input = z.strictObject({
  path: z.string().min(1).describe("Path of an existing file, relative to the repository root."),
  edits: z
    .array(
      z.strictObject({
        search: z.string().min(1).describe("Exact text currently in the file, to be replaced. Must occur exactly once."),
        replace: z.string().describe("Text that replaces it (may be empty to delete)."),
      }),
    )
    .min(1)
    .describe("Search/replace blocks, all matched against the current content."),
});
type Input = z.infer<typeof input>;

type Planned = { ok: true; rel: string; abs: string; before: string; after: string; regions: EditedRegion[] } | { ok: false; error: ToolError };

/** Confinement, protection, edit context, existence and the blocks themselves: all before any write. */
async function plan(args: Input, ctx: ToolContext): Promise<Planned> {
  const t = await writeTarget(args.path, ctx);
  if (!t.ok) return t;
  if (t.before === null) return { ok: false, error: notFound(t.rel) };
  const before = t.before.toString("utf8");
  const applied = applyEdits(t.rel, before, args.edits);
  if (!applied.ok) return applied;
  // A page read is enough for a local edit: only the lines the search texts cover must have been shown.
  const unseen = checkLinesSeen(
    ctx.state.fileContexts,
    t.rel,
    applied.regions.map((r) => r.old),
  );
  if (unseen) return { ok: false, error: unseen };
  return { ok: true, rel: t.rel, abs: t.abs, before, after: applied.content, regions: applied.regions };
}

export const editFileTool = defineTool({
  name: "edit_file",
  version: "5",
  description: DESCRIPTION,
  input,
  effect: { risk: "write", mutatesWorkspace: true, idempotent: false },
  modes: ["execute"],
  // The diff lets the model check what it did without a re-read; a short one is enough for that.
  output: { fields: ["diff"], maxBytes: 4 * 1024 },
  // The blocks are checked here too, so a human is never asked to approve a patch that cannot apply.
  async precheck(args, ctx) {
    const p = await plan(args, ctx);
    return p.ok ? null : p.error;
  },
  async unchanged(args, ctx) {
    const p = await plan(args, ctx);
    return p.ok && p.after === p.before ? noChange(p.rel) : null;
  },
  request(args) {
    return { kind: "write", path: lexicalRel(args.path) };
  },
  async executableConfig(args, ctx) {
    const p = await plan(args, ctx);
    return p.ok ? executableWrite(p.rel, p.before, p.after, ctx) : null;
  },
  async preview(args, ctx) {
    const p = await plan(args, ctx);
    return p.ok ? capOutput(filePatch(p.rel, p.before, p.after), PREVIEW_BYTES).text : `(refused: ${p.error.message})`;
  },
  async execute(args, ctx) {
    const p = await plan(args, ctx);
    if (!p.ok) return { result: { ok: false, error: p.error } };
    const executable = executableWrite(p.rel, p.before, p.after, ctx);
    const unapproved = executableWriteRefusal(executable, ctx);
    if (unapproved) return { result: { ok: false, error: unapproved } };
    const refused = await writeRegularFile(p.abs, p.rel, p.after);
    if (refused) return { result: { ok: false, error: refused } };
    const data = {
      path: p.rel,
      edits_applied: args.edits.length,
      bytes: Buffer.byteLength(p.after),
      diff: filePatch(p.rel, p.before, p.after),
    };
    // What the agent knows of the file now: what it had seen, moved by the edit, and what it wrote.
    const seen = ctx.state.fileContexts[p.rel]?.seen;
    const known = seen === undefined ? {} : { seen: seenAfterEdit(seen, p.regions) };
    const flag = executable ? { executableConfig: true } : {};
    return { result: ok(data), events: [{ type: "file_written", path: p.rel, hash: contentHash(p.after), ...known, ...flag }] };
  },
});

import { mkdir } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { checkEditContext, checkLinesSeen, contentHash } from "../policy/edit-context.js";
import { lineCount } from "../session/seen-lines.js";
import type { ToolError } from "../session/types.js";
import { executableWrite, executableWriteRefusal } from "./support/executable-write.js";
import { lexicalRel, resolveForWrite } from "./support/paths.js";
import { filePatch, isToolError, readRegularFile, writeRegularFile } from "./support/text.js";
import { defineTool } from "./define-tool.js";
import { capOutput, PREVIEW_BYTES } from "./output-cap.js";
import { fail, noChange, ok, type ToolContext } from "./tool.js";

const DESCRIPTION = `Create a file, or replace a file's whole content.
- path is relative to the repository root; missing parent directories are created.
- An existing file must have been shown to you whole (every page of read_file) after its last change, or the write is refused (edit_without_read, naming the lines still to read): read them, then retry.
- Prefer edit_file for changing part of an existing file.
- Protected paths (.git, .github/workflows, .gitmodules, .github/patchgate.yml and the repository's own list) can never be written.
- Executable configuration (other CI systems, devcontainers, git hooks, editor tasks, agent instructions, package-manager config, install scripts) is written only with a maintainer's own approval of it.`;

const input = z.strictObject({
  path: z.string().min(1).describe("File path relative to the repository root, e.g. `src/util.ts`."),
  content: z.string().describe("The complete new content of the file."),
});
type Input = z.infer<typeof input>;

/**
 * The target and its current bytes (null = new file), or why the write is refused: the file changed
 * since the agent last read it, or was never read. Which lines must have been shown is the caller's
 * check (checkLinesSeen): an edit needs the lines it replaces, a whole write all of them.
 */
export async function writeTarget(
  filePath: string,
  ctx: ToolContext,
): Promise<{ ok: true; abs: string; rel: string; before: Buffer | null } | { ok: false; error: ToolError }> {
  const p = await resolveForWrite(ctx, filePath);
  if (!p.ok) return p;
  const before = await readRegularFile(p.abs, p.rel);
  if (isToolError(before)) return { ok: false, error: before };
  const stale = checkEditContext(ctx.state.fileContexts, p.rel, before === null ? null : contentHash(before));
  if (stale) return { ok: false, error: stale };
  return { ok: true, abs: p.abs, rel: p.rel, before };
}

/** Replacing a whole file is writing over every line of it: all must have been shown. */
async function wholeWriteTarget(filePath: string, ctx: ToolContext): ReturnType<typeof writeTarget> {
  const t = await writeTarget(filePath, ctx);
  if (!t.ok || t.before === null) return t;
  const lines = lineCount(t.before.toString("utf8"));
  const unseen = checkLinesSeen(ctx.state.fileContexts, t.rel, lines === 0 ? [] : [[1, lines]]);
  return unseen ? { ok: false, error: unseen } : t;
}

export const writeFileTool = defineTool({
  name: "write_file",
  version: "3",
  description: DESCRIPTION,
  input,
  effect: { risk: "write", mutatesWorkspace: true, idempotent: true },
  modes: ["execute"],
  async precheck(args: Input, ctx) {
    const t = await wholeWriteTarget(args.path, ctx);
    return t.ok ? null : t.error;
  },
  async unchanged(args, ctx) {
    const t = await wholeWriteTarget(args.path, ctx);
    return t.ok && t.before !== null && t.before.equals(Buffer.from(args.content, "utf8")) ? noChange(t.rel) : null;
  },
  request(args) {
    return { kind: "write", path: lexicalRel(args.path) };
  },
  async executableConfig(args, ctx) {
    const t = await wholeWriteTarget(args.path, ctx);
    return t.ok ? executableWrite(t.rel, t.before, args.content, ctx) : null;
  },
  async preview(args, ctx) {
    const t = await wholeWriteTarget(args.path, ctx);
    if (!t.ok) return `(refused: ${t.error.message})`;
    return capOutput(filePatch(t.rel, t.before === null ? null : t.before.toString("utf8"), args.content), PREVIEW_BYTES).text;
  },
  async execute(args, ctx) {
    // Judged again: approval may have come much later, and a command may have changed the file since.
    const t = await wholeWriteTarget(args.path, ctx);
    if (!t.ok) return { result: { ok: false, error: t.error } };
    const executable = executableWrite(t.rel, t.before, args.content, ctx);
    const unapproved = executableWriteRefusal(executable, ctx);
    if (unapproved) return { result: { ok: false, error: unapproved } };
    try {
      await mkdir(path.dirname(t.abs), { recursive: true });
      const refused = await writeRegularFile(t.abs, t.rel, args.content);
      if (refused) return { result: { ok: false, error: refused } };
    } catch (err) {
      // e.g. a parent "directory" that is a file: the model can pick another path.
      return { result: fail("write_failed", `could not write ${t.rel}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, { path: t.rel }) };
    }
    const bytes = Buffer.byteLength(args.content);
    return {
      result: ok({ path: t.rel, bytes, created: t.before === null }),
      events: [{ type: "file_written", path: t.rel, hash: contentHash(args.content), ...(executable ? { executableConfig: true } : {}) }],
    };
  },
});

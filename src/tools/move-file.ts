import { lstat, mkdir, rename } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import type { ToolError } from "../session/types.js";
import { executableWriteRefusal } from "./support/executable-write.js";
import { fileOpExecutable, fileOpPath, fileOpSource, type FileOpSource } from "./support/file-ops.js";
import { lexicalRel } from "./support/paths.js";
import { defineTool } from "./define-tool.js";
import { fail, ok, type ToolContext } from "./tool.js";

const DESCRIPTION = `Move or rename one file, its content unchanged.
- from and to are relative to the repository root; from must be a regular file, to must not exist yet (missing parent directories are created).
- Judged like a write to both paths: a protected path (.git, .github/workflows, .gitmodules, .github/patchgate.yml and the repository's own list) can be neither the source nor the destination.
- What you have read of from counts for to: edit the moved file at its new path without reading it again. from is then a path you have never read.
- To change the content as well, move first, then use edit_file or write_file on to. Never use run_command with mv or git mv.`;

const input = z.strictObject({
  from: z.string().min(1).describe("Path of the existing file, relative to the repository root."),
  to: z.string().min(1).describe("New path of the file, relative to the repository root; must not exist."),
});
type Input = z.infer<typeof input>;

type Planned = { ok: true; file: FileOpSource; abs: string; rel: string } | { ok: false; error: ToolError };

/** Both ends confined and judged as writes, the source a regular file, the destination free. */
async function plan(args: Input, ctx: ToolContext): Promise<Planned> {
  const source = await fileOpSource(ctx, args.from);
  if (!source.ok) return source;
  const target = await fileOpPath(ctx, args.to);
  if (!target.ok) return target;
  if (target.rel === source.file.rel) {
    return { ok: false, error: { code: "same_path", message: `from and to are both ${target.rel}; nothing to move.`, details: { path: target.rel } } };
  }
  if ((await lstat(target.abs).catch(() => null)) !== null) {
    return {
      ok: false,
      error: {
        code: "destination_exists",
        message: `${target.rel} already exists; move_file never replaces a file. Delete it first with delete_file, or choose another path.`,
        details: { path: target.rel },
      },
    };
  }
  return { ok: true, file: source.file, abs: target.abs, rel: target.rel };
}

export const moveFileTool = defineTool({
  name: "move_file",
  version: "1",
  description: DESCRIPTION,
  input,
  effect: { risk: "write", mutatesWorkspace: true, idempotent: false },
  modes: ["execute"],
  async precheck(args, ctx) {
    const p = await plan(args, ctx);
    return p.ok ? null : p.error;
  },
  request(args) {
    return { kind: "write", path: lexicalRel(args.to), from: lexicalRel(args.from) };
  },
  async executableConfig(args, ctx) {
    const p = await plan(args, ctx);
    return p.ok ? fileOpExecutable(p.file, p.rel, ctx) : null;
  },
  async preview(args, ctx) {
    const p = await plan(args, ctx);
    return p.ok ? `rename ${p.file.rel} → ${p.rel} (${p.file.bytes} bytes, content unchanged)` : `(refused: ${p.error.message})`;
  },
  async execute(args, ctx) {
    // Judged again: approval may have come much later, and a command may have changed either path since.
    const p = await plan(args, ctx);
    if (!p.ok) return { result: { ok: false, error: p.error } };
    const executable = await fileOpExecutable(p.file, p.rel, ctx);
    const unapproved = executableWriteRefusal(executable, ctx);
    if (unapproved) return { result: { ok: false, error: unapproved } };
    try {
      await mkdir(path.dirname(p.abs), { recursive: true });
      await rename(p.file.abs, p.abs);
    } catch (err) {
      // e.g. a parent "directory" that is a file: the model can pick another path.
      return {
        result: fail("move_failed", `could not move ${p.file.rel} to ${p.rel}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, {
          from: p.file.rel,
          to: p.rel,
        }),
      };
    }
    return {
      result: ok({ from: p.file.rel, to: p.rel, bytes: p.file.bytes }),
      events: [{ type: "file_moved", from: p.file.rel, to: p.rel, hash: p.file.hash, ...(executable ? { executableConfig: true } : {}) }],
    };
  },
});

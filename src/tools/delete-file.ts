import { unlink } from "node:fs/promises";
import { z } from "zod";
import { executableWriteRefusal } from "./support/executable-write.js";
import { deletePreview, fileOpExecutable, fileOpSource } from "./support/file-ops.js";
import { lexicalRel } from "./support/paths.js";
import { defineTool } from "./define-tool.js";
import { capOutput, PREVIEW_BYTES } from "./output-cap.js";
import { fail, ok } from "./tool.js";

const DESCRIPTION = `Delete one file.
- path is relative to the repository root and must be a regular file (not a directory or a symlink).
- Judged like a write: the same approval, and the same protected paths (.git, .github/workflows, .gitmodules, .github/patchgate.yml and the repository's own list) can never be deleted.
- The file need not have been read: nothing is written from its content. Deleting executable configuration needs a maintainer's own approval of it.
- To rename or move a file, use move_file, never run_command with rm or mv.`;

const input = z.strictObject({
  path: z.string().min(1).describe("Path of the file to delete, relative to the repository root."),
});
type Input = z.infer<typeof input>;

export const deleteFileTool = defineTool({
  name: "delete_file",
  version: "1",
  description: DESCRIPTION,
  input,
  effect: { risk: "write", mutatesWorkspace: true, idempotent: false },
  modes: ["execute"],
  async precheck(args: Input, ctx) {
    const s = await fileOpSource(ctx, args.path);
    return s.ok ? null : s.error;
  },
  request(args) {
    return { kind: "write", path: lexicalRel(args.path) };
  },
  async executableConfig(args, ctx) {
    const s = await fileOpSource(ctx, args.path);
    return s.ok ? fileOpExecutable(s.file, null, ctx) : null;
  },
  async preview(args, ctx) {
    const s = await fileOpSource(ctx, args.path);
    return s.ok ? capOutput(await deletePreview(s.file), PREVIEW_BYTES).text : `(refused: ${s.error.message})`;
  },
  async execute(args, ctx) {
    // Judged again: approval may have come much later, and a command may have changed the file since.
    const s = await fileOpSource(ctx, args.path);
    if (!s.ok) return { result: { ok: false, error: s.error } };
    const executable = await fileOpExecutable(s.file, null, ctx);
    const unapproved = executableWriteRefusal(executable, ctx);
    if (unapproved) return { result: { ok: false, error: unapproved } };
    try {
      await unlink(s.file.abs);
    } catch (err) {
      return {
        result: fail("delete_failed", `could not delete ${s.file.rel}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, { path: s.file.rel }),
      };
    }
    return {
      result: ok({ path: s.file.rel, deleted: true, bytes: s.file.bytes }),
      events: [{ type: "file_deleted", path: s.file.rel, hash: s.file.hash, ...(executable ? { executableConfig: true } : {}) }],
    };
  },
});

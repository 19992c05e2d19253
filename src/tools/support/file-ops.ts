import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { lstat, readFile } from "node:fs/promises";
import { judgeExecutableChange } from "../../policy/install-hooks.js";
import type { ExecutableConfigHit, ToolError } from "../../session/types.js";
import type { ToolContext } from "../tool.js";
import { lexicalRel, resolveForWrite } from "./paths.js";
import { filePatch, isBinary, notFound } from "./text.js";

/**
 * What delete_file and move_file share: the file they act on, found and judged like a write target, and
 * the words a human is shown. They never open the file for writing and never need its text, so a binary
 * or a large file moves whole; only a small text file is read, to judge a manifest's install keys and to
 * show the lines that go.
 */

/** A regular file a delete or a move may take: canonical path, size, and the hash that names its content. */
export interface FileOpSource {
  abs: string;
  rel: string;
  bytes: number;
  hash: string;
}

/** Up to this size a file's text is read for the preview and the manifest check; beyond it the file is data. */
const TEXT_BYTES = 1024 * 1024;

function refused(code: string, message: string, rel: string): { ok: false; error: ToolError } {
  return { ok: false, error: { code, message, details: { path: rel } } };
}

/**
 * `p` confined and judged as a write (protected paths refused). The lexical path must be the real one:
 * a symlink on the way would make the tool act on a file the request did not name, and the policy
 * judged the name.
 */
export async function fileOpPath(ctx: ToolContext, p: string): Promise<{ ok: true; abs: string; rel: string } | { ok: false; error: ToolError }> {
  const r = await resolveForWrite(ctx, p);
  if (!r.ok) return r;
  const lexical = lexicalRel(p);
  if (r.rel !== lexical) {
    return refused(
      "path_denied",
      `${lexical} is a symlink or lies behind one (it leads to ${r.rel}); delete_file and move_file take real file paths only.`,
      lexical,
    );
  }
  return { ok: true, abs: r.abs, rel: r.rel };
}

/** The existing regular file at `p`, or why a delete or move cannot take it. */
export async function fileOpSource(ctx: ToolContext, p: string): Promise<{ ok: true; file: FileOpSource } | { ok: false; error: ToolError }> {
  const t = await fileOpPath(ctx, p);
  if (!t.ok) return t;
  const st = await lstat(t.abs).catch(() => null);
  if (st === null) return { ok: false, error: notFound(t.rel) };
  if (!st.isFile()) {
    return refused(
      "not_a_file",
      `${t.rel} is not a regular file (a directory, a symlink or a special file); delete_file and move_file act on one file at a time.`,
      t.rel,
    );
  }
  return { ok: true, file: { abs: t.abs, rel: t.rel, bytes: st.size, hash: await hashFile(t.abs) } };
}

/** The same sha256 the edit context uses (policy/edit-context.ts contentHash), streamed: the file may be large. */
async function hashFile(abs: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(abs)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/** The file's text when it is small and not binary; null otherwise. */
async function smallText(file: FileOpSource): Promise<string | null> {
  if (file.bytes > TEXT_BYTES) return null;
  const buf = await readFile(file.abs);
  return isBinary(buf) ? null : buf.toString("utf8");
}

/**
 * Whether the file leaving `from` (and, for a move, arriving at `to`) changes executable configuration:
 * removing a CI definition or a manifest's install script changes what runs, as adding one does.
 */
export async function fileOpExecutable(file: FileOpSource, to: string | null, ctx: ToolContext): Promise<ExecutableConfigHit | null> {
  const extra = ctx.repoConfig.policy.executable_config;
  const text = await smallText(file);
  const leaving = judgeExecutableChange(file.rel, text, null, extra);
  if (leaving !== null || to === null) return leaving;
  return judgeExecutableChange(to, null, text, extra);
}

/** What a human is shown before a delete: the lines that go, or the size of a file that is data. */
export async function deletePreview(file: FileOpSource): Promise<string> {
  const text = await smallText(file);
  if (text === null) return `delete ${file.rel} (${file.bytes} bytes, binary or large: not shown)`;
  return `delete ${file.rel} (${file.bytes} bytes)\n${filePatch(file.rel, text, "").replace(`+++ b/${file.rel}`, "+++ /dev/null")}`;
}

import { randomBytes } from "node:crypto";
import { constants, open, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { createTwoFilesPatch } from "diff";
import type { ToolError } from "../../session/types.js";
import { specialKind, type SpecialKind } from "../../workspace/tree-walk.js";

/** Text helpers shared by the file tools: binary detection, line splitting, diffs, file lookup. */

/** git's own heuristic: a NUL byte in the first 8 KB means binary. */
export function isBinary(buf: Buffer): boolean {
  return buf.subarray(0, 8192).includes(0);
}

/** Lines without their terminators; a final newline does not start an extra empty line. */
export function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines.map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
}

/** Unified diff of one file, whole: the human's preview and the model's result each cut it to their own bound. */
export function filePatch(rel: string, before: string | null, after: string): string {
  return createTwoFilesPatch(before === null ? "/dev/null" : `a/${rel}`, `b/${rel}`, before ?? "", after);
}

/** Beyond this no tool loads a file into memory; such files are data, not source to edit. */
const MAX_FILE_BYTES = 16 * 1024 * 1024;

export function specialFile(rel: string, kind: SpecialKind): ToolError {
  return {
    code: "special_file",
    message: `${rel} is a ${kind}, not a regular file. The file tools never open special files: reading or writing one can block for ever or never end.`,
    details: { path: rel, kind },
  };
}

function notAFile(rel: string): ToolError {
  return { code: "not_a_file", message: `${rel} is a directory, not a file; use list_files to see its contents.`, details: { path: rel } };
}

function tooLarge(rel: string, bytes: number): ToolError {
  return {
    code: "file_too_large",
    message: `${rel} is ${bytes} bytes, beyond the ${MAX_FILE_BYTES}-byte limit of the file tools.`,
    details: { path: rel, bytes },
  };
}

// Non-blocking, so that a FIFO swapped in after the stat opens at once (or fails) instead of waiting
// for a writer; no-follow, so that `abs` (a realpath) cannot have become a symlink since. The open
// file is checked again before a byte moves.
const READ_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW;
const WRITE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_NONBLOCK | constants.O_NOFOLLOW;

/** What an open refused with, as a tool error: a socket cannot be opened at all (ENXIO). */
function refusedOpen(rel: string, err: NodeJS.ErrnoException): ToolError {
  if (err.code === "ENXIO") return specialFile(rel, "socket");
  if (err.code === "ELOOP") return { code: "path_denied", message: `${rel} became a symlink while it was being opened; try again.`, details: { path: rel } };
  throw err;
}

/** A regular file's bytes, null when nothing is there, or a model-visible error for anything else. */
export async function readRegularFile(abs: string, rel: string): Promise<Buffer | null | ToolError> {
  const st = await stat(abs).catch((err: NodeJS.ErrnoException) => {
    if (err.code === "ENOENT" || err.code === "ENOTDIR") return null;
    throw err;
  });
  if (st === null) return null;
  const kind = specialKind(st);
  if (kind) return specialFile(rel, kind);
  if (!st.isFile()) return notAFile(rel);
  if (st.size > MAX_FILE_BYTES) return tooLarge(rel, st.size);
  const fh = await open(abs, READ_FLAGS).catch((err: NodeJS.ErrnoException) => refusedOpen(rel, err));
  if (isToolError(fh)) return fh;
  try {
    const opened = await fh.stat();
    const now = specialKind(opened);
    if (now) return specialFile(rel, now);
    if (!opened.isFile()) return notAFile(rel);
    if (opened.size > MAX_FILE_BYTES) return tooLarge(rel, opened.size);
    return await fh.readFile();
  } finally {
    await fh.close();
  }
}

/** Writes `content` to a regular file (created if absent); a special file there is refused, never opened for writing. */
export async function writeRegularFile(abs: string, rel: string, content: string): Promise<ToolError | null> {
  // A FIFO without a reader refuses a non-blocking write-open (ENXIO), like a socket.
  const fh = await open(abs, WRITE_FLAGS, 0o666).catch((err: NodeJS.ErrnoException) =>
    err.code === "ENXIO" ? specialFile(rel, "fifo") : refusedOpen(rel, err),
  );
  if (isToolError(fh)) return fh;
  try {
    const opened = await fh.stat();
    const kind = specialKind(opened);
    if (kind) return specialFile(rel, kind);
    if (!opened.isFile()) return notAFile(rel);
    if (opened.nlink > 1) return await replaceLinked(abs, content, opened.mode & 0o777);
    await fh.truncate(0);
    await fh.writeFile(content);
    return null;
  } finally {
    await fh.close();
  }
}

/**
 * A file with another link (a dependency cache entry links the files setup made) is replaced, never
 * written through: the write must not reach the other name.
 */
async function replaceLinked(abs: string, content: string, mode: number): Promise<null> {
  const tmp = path.join(path.dirname(abs), `.patchgate-write-${randomBytes(6).toString("hex")}`);
  try {
    await writeFile(tmp, content, { flag: "wx", mode });
    await rename(tmp, abs);
  } finally {
    await rm(tmp, { force: true });
  }
  return null;
}

export function isToolError(x: unknown): x is ToolError {
  return typeof x === "object" && x !== null && !Buffer.isBuffer(x) && "code" in x && "message" in x;
}

export function notFound(rel: string): ToolError {
  return { code: "file_not_found", message: `${rel} does not exist; use list_files or search_code to find the right path.`, details: { path: rel } };
}

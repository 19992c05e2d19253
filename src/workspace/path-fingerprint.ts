import { createHash } from "node:crypto";
import { closeSync, constants, fstatSync, openSync, readFile, readFileSync, readlinkSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { pathEntry } from "./publish-index.js";

/** Files up to this size are read synchronously (well under a millisecond); larger ones off the event loop. */
const SYNC_READ_MAX_BYTES = 1 << 20;
const readFd = promisify(readFile);

/**
 * What git would stage for a path, read by this process without starting git: its kind, its
 * executable bit and the hash of its bytes (a symlink: of its target). Equal fingerprints mean git
 * stages the same entry, so a cached tree can be reused; the bytes are read every time, never
 * assumed from stat, so no write can hide behind an unchanged mtime. The stat, open and small reads
 * are synchronous: the few published files and attribute files of a snapshot cost microseconds each
 * that way, where every thread-pool round trip cost a tenth of a millisecond (twice per diff).
 */
async function pathFingerprint(root: string, rel: string): Promise<string> {
  const entry = pathEntry(root, rel);
  if (entry.kind !== "file") return entry.kind;
  const abs = path.join(root, rel);
  if (entry.st.isSymbolicLink()) return `link:${digest(Buffer.from(linkTarget(abs)))}`;
  // No-follow and non-blocking: a file swapped for a link or a FIFO since lstat is not waited on.
  const fd = openOrWhy(abs, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  if (typeof fd === "string") return fd;
  try {
    const now = fstatSync(fd);
    if (!now.isFile()) return "other";
    const bytes = now.size <= SYNC_READ_MAX_BYTES ? readFileSync(fd) : await readFd(fd);
    return `file:${now.mode & 0o111 ? "x" : "-"}:${digest(bytes)}`;
  } finally {
    closeSync(fd);
  }
}

function linkTarget(abs: string): string {
  try {
    return readlinkSync(abs);
  } catch {
    return "";
  }
}

/** The open descriptor, or what the path is when it cannot be opened: gone since its lstat, or something else. */
function openOrWhy(abs: string, flags: number): number | "absent" | "other" {
  try {
    return openSync(abs, flags);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "ENOENT" ? "absent" : "other";
  }
}

function digest(bytes: Buffer): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/**
 * Everything besides the paths' own bytes that decides what git stages and how it diffs them: the
 * repository's config (core.filemode, core.symlinks) and every attributes file that can apply to the
 * paths (eol conversion, `binary`, `-diff`): .git/info/attributes and the .gitattributes of the root
 * and of each path's directories.
 */
async function contextFingerprint(root: string, paths: readonly string[]): Promise<string> {
  const files = new Set([".git/config", ".git/info/attributes", ".gitattributes"]);
  for (const p of paths) {
    const parts = p.split("/").slice(0, -1);
    for (let i = 1; i <= parts.length; i++) files.add(`${parts.slice(0, i).join("/")}/.gitattributes`);
  }
  const parts = await Promise.all([...files].sort().map(async (f) => `${f}=${await pathFingerprint(root, f)}`));
  return digest(Buffer.from(parts.join("\0")));
}

/** One key for (context, every path's fingerprint): equal keys, equal published trees. */
export async function pathsFingerprint(root: string, paths: readonly string[]): Promise<{ context: string; byPath: Map<string, string> }> {
  const unique = [...new Set(paths)].sort();
  const [context, prints] = await Promise.all([contextFingerprint(root, unique), Promise.all(unique.map((p) => pathFingerprint(root, p)))]);
  return { context, byPath: new Map(unique.map((p, i) => [p, prints[i]])) };
}

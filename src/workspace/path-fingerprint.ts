import { createHash } from "node:crypto";
import { constants } from "node:fs";
import { lstat, open, readlink } from "node:fs/promises";
import path from "node:path";
import { pathKind } from "./publish-index.js";

/**
 * What git would stage for a path, read by this process without starting git: its kind, its
 * executable bit and the hash of its bytes (a symlink: of its target). Equal fingerprints mean git
 * stages the same entry, so a cached tree can be reused; the bytes are read every time, never
 * assumed from stat, so no write can hide behind an unchanged mtime.
 */
async function pathFingerprint(root: string, rel: string): Promise<string> {
  const kind = await pathKind(root, rel);
  if (kind !== "file") return kind;
  const abs = path.join(root, rel);
  const st = await lstat(abs).catch(() => null);
  if (st === null) return "absent";
  if (st.isSymbolicLink()) return `link:${digest(Buffer.from(await readlink(abs).catch(() => "")))}`;
  // No-follow and non-blocking: a file swapped for a link or a FIFO since lstat is not waited on.
  const fh = await open(abs, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch(() => null);
  if (fh === null) return "other";
  try {
    const now = await fh.stat();
    if (!now.isFile()) return "other";
    return `file:${now.mode & 0o111 ? "x" : "-"}:${digest(await fh.readFile())}`;
  } finally {
    await fh.close();
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

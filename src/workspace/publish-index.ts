import { lstatSync, type Stats } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { gitOk } from "./git.js";

/**
 * The tree a session may publish is built from the ledger, not from whatever the workspace holds:
 * the base commit's tree with exactly `paths` (the files the file tools wrote and the commands a human
 * approved changed) taken from the working tree as they are now. Everything else — setup output
 * (node_modules, a lockfile the install rewrote), files a process left behind — is the base's or absent.
 * Test gate, diff, commit and publish guard all hash this one index, so they name the same tree.
 */

/**
 * What is at `rel`, reached through real directories only: a regular file or symlink (git can record
 * it), nothing, or something else (a directory, a FIFO, a device) that cannot be published as a file.
 * Its lstat calls are synchronous: each takes microseconds, a round trip through libuv's thread pool
 * ten times that, and a fingerprint (path-fingerprint.ts) makes one per directory of every path.
 */
export function pathKind(root: string, rel: string): "file" | "absent" | "other" {
  return pathEntry(root, rel).kind;
}

/** pathKind with the lstat it ended on, for a caller that needs the entry itself (mode, link or file). */
export function pathEntry(root: string, rel: string): { kind: "file"; st: Stats } | { kind: "absent" | "other" } {
  let dir = root;
  for (const segment of rel.split("/").slice(0, -1)) {
    dir = path.join(dir, segment);
    const st = lstatOrNull(dir);
    if (st === null) return { kind: "absent" };
    if (!st.isDirectory()) return { kind: st.isSymbolicLink() ? "other" : "absent" };
  }
  const st = lstatOrNull(path.join(root, rel));
  if (st === null) return { kind: "absent" };
  return st.isFile() || st.isSymbolicLink() ? { kind: "file", st } : { kind: "other" };
}

/** lstat, or null for any failure (gone, not a directory on the way, no permission): each means "not there". */
function lstatOrNull(abs: string): Stats | null {
  try {
    return lstatSync(abs);
  } catch {
    return null;
  }
}

/**
 * Puts `paths` into the index named by `env` as they are in the working tree. A path that is gone, a
 * directory now, or something git cannot record (a FIFO, a device) is removed from the index: it is
 * published as deleted. Ignored files are taken too — a path is listed because it was written on purpose.
 */
export async function stagePaths(root: string, env: { GIT_INDEX_FILE: string }, paths: readonly string[], signal?: AbortSignal): Promise<void> {
  const present: string[] = [];
  const absent: string[] = [];
  for (const p of new Set(paths)) (pathKind(root, p) === "file" ? present : absent).push(p);
  const stdin = (list: string[]) => list.map((p) => `${p}\0`).join("");
  if (present.length > 0) await gitOk(["update-index", "--add", "--remove", "--replace", "-z", "--stdin"], { cwd: root, env, input: stdin(present), signal });
  if (absent.length > 0) await gitOk(["update-index", "--force-remove", "-z", "--stdin"], { cwd: root, env, input: stdin(absent), signal });
}

/** Runs `fn` with a throwaway index holding the base tree plus `paths` from the working tree. */
export async function withPublishIndex<T>(
  root: string,
  base: string,
  paths: readonly string[],
  fn: (env: { GIT_INDEX_FILE: string }) => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  const dir = await mkdtemp(path.join(tmpdir(), "patchgate-publish-"));
  const env = { GIT_INDEX_FILE: path.join(dir, "index") };
  try {
    await gitOk(["read-tree", `${base}^{tree}`], { cwd: root, env, signal });
    await stagePaths(root, env, paths, signal);
    return await fn(env);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

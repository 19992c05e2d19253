import { lstat, mkdir, realpath, rm } from "node:fs/promises";
import path from "node:path";
import { runProcess } from "../process/index.js";

/**
 * Copies and links for the dependency cache. A restore always copies: a session owns its files and
 * may write into one in place (`npm rebuild`, a test that touches a fixture under node_modules).
 * `cp --reflink=auto` clones extents where the filesystem can (btrfs, XFS: instant, and a later write
 * copies only the changed blocks) and copies bytes elsewhere (ext4). A store may link instead
 * (`linkTree`), only where nothing can write into the linked files later: dependency-store.ts `take`
 * says when. Symlinks are copied as links, never followed (-a).
 */
async function run(file: string, args: string[]): Promise<string> {
  const r = await runProcess({ command: file, args, env: { PATH: "/usr/bin:/bin", LC_ALL: "C" } });
  if (r.exitCode !== 0) throw new Error(`${file} ${args.slice(0, 3).join(" ")}: ${r.stderr.toString("utf8").trim() || `exit ${r.exitCode ?? r.signal}`}`);
  return r.stdout.toString("utf8");
}

/** `src` (a file, link or directory) to `dst`, which must not exist yet; its parent is created. */
export async function copyTree(src: string, dst: string): Promise<void> {
  await mkdir(path.dirname(dst), { recursive: true });
  await run("cp", ["-a", "--reflink=auto", "--", src, dst]);
}

/**
 * `src` to `dst` as new directories and symlinks over the same files (hard links): no file's bytes
 * are read. Across filesystems, where a link cannot be made, it copies.
 */
export async function linkTree(src: string, dst: string): Promise<void> {
  await mkdir(path.dirname(dst), { recursive: true });
  try {
    await run("cp", ["-a", "--link", "--", src, dst]);
  } catch {
    await rm(dst, { recursive: true, force: true });
    await copyTree(src, dst);
  }
}

/** The contents of directory `src` merged into `dst`. */
export async function copyContents(src: string, dst: string): Promise<void> {
  await mkdir(dst, { recursive: true });
  await run("cp", ["-a", "--reflink=auto", "--", `${src}/.`, dst]);
}

/** Apparent size of everything under `dir`, in bytes. */
export async function treeBytes(dir: string): Promise<number> {
  const out = await run("du", ["-sb", "--", dir]);
  return Number(out.split("\t")[0]) || 0;
}

/**
 * Whether `rel` can be written below `root` without leaving it: every directory on the way is a real
 * directory, not a symlink (a tracked `packages -> /etc` would otherwise take a restore to the host).
 */
export async function insideRoot(root: string, rel: string): Promise<boolean> {
  const parts = rel.split("/").filter((p) => p !== "");
  if (path.isAbsolute(rel) || parts.length === 0 || parts.some((p) => p === ".." || p === ".")) return false;
  let dir = await realpath(root);
  for (const part of parts.slice(0, -1)) {
    dir = path.join(dir, part);
    const st = await lstat(dir).catch(() => null);
    if (st === null) return true;
    if (!st.isDirectory()) return false;
  }
  return true;
}

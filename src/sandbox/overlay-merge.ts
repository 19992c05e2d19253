import { randomBytes } from "node:crypto";
import { constants, createWriteStream } from "node:fs";
import { chmod, link, lstat, mkdir, open, readdir, readlink, rename, rm, symlink, utimes } from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";

/**
 * A command's writes land in an overlay's upper layer (run-overlay.ts); this copies them into the
 * workspace afterwards. What the command left is read from two views of the same overlay: the upper
 * layer says what it wrote, the merged view what the workspace should now hold, so a name the
 * workspace has and the merged view lacks was deleted (a whiteout, or a directory made opaque)
 * without reading overlay's private markers. The workspace's own `.git` is never written: the run saw
 * it read-only, and the layer is reachable by the run itself.
 */

/** One change to the workspace; `replaces`: bytes of the workspace's files it replaces or removes. */
export type Step = { replaces: number } & (
  | { op: "remove"; rel: string }
  | { op: "dir"; rel: string; mode: number }
  | { op: "file"; rel: string; mode: number; ino: number; size: number; atime: Date; mtime: Date }
  | { op: "symlink"; rel: string; target: string }
);

export interface MergePlan {
  steps: Step[];
  /** Bytes the kept files hold, each inode once: what the copy writes, holes of sparse files included. */
  bytes: number;
  /** Bytes of the workspace's files that the copy replaces or removes. */
  replaced: number;
  /** FIFOs, sockets and device nodes the run made, which are not kept: "path (a kind)". */
  dropped: string[];
}

export async function planMerge(upper: string, merged: string, workspace: string): Promise<MergePlan> {
  const plan: MergePlan = { steps: [], bytes: 0, replaced: 0, dropped: [] };
  await walk(plan, { upper, merged, workspace }, "", true, new Set());
  return plan;
}

async function walk(
  plan: MergePlan,
  roots: { upper: string; merged: string; workspace: string },
  rel: string,
  lowerIsDir: boolean,
  inodes: Set<number>,
): Promise<void> {
  const shown = new Set(await readdir(path.join(roots.merged, rel)));
  // Below a name the run replaced, the workspace's entry is not a real directory: it has nothing to remove.
  const lower = lowerIsDir ? await readdir(path.join(roots.workspace, rel)).catch(() => []) : [];
  for (const name of lower) {
    if (shown.has(name) || isGit(rel, name)) continue;
    const replaces = await sizeOf(path.join(roots.workspace, rel, name));
    plan.steps.push({ op: "remove", rel: path.join(rel, name), replaces });
    plan.replaced += replaces;
  }
  for (const entry of await readdir(path.join(roots.upper, rel))) {
    // Not shown: a whiteout, of whichever form; the removal above is all it means.
    if (isGit(rel, entry) || !shown.has(entry)) continue;
    const p = path.join(rel, entry);
    const st = await lstat(path.join(roots.upper, p));
    const was = lowerIsDir ? await lstat(path.join(roots.workspace, p)).catch(() => null) : null;
    // A directory kept as one keeps its entries; anything else the run put there replaces the old entry whole.
    const replaces = was !== null && !(st.isDirectory() && was.isDirectory()) ? await sizeOf(path.join(roots.workspace, p)) : 0;
    plan.replaced += replaces;
    if (st.isDirectory()) {
      plan.steps.push({ op: "dir", rel: p, mode: st.mode & 0o777, replaces });
      await walk(plan, roots, p, was?.isDirectory() === true, inodes);
    } else if (st.isFile()) {
      plan.steps.push({ op: "file", rel: p, mode: st.mode & 0o777, ino: st.ino, size: st.size, atime: st.atime, mtime: st.mtime, replaces });
      if (!inodes.has(st.ino)) plan.bytes += st.size;
      inodes.add(st.ino);
    } else if (st.isSymbolicLink()) {
      plan.steps.push({ op: "symlink", rel: p, target: await readlink(path.join(roots.upper, p)), replaces });
    }
    // FIFOs, sockets and devices are never kept.
    else plan.dropped.push(`${p} (a ${specialKind(st)})`);
  }
}

const isGit = (rel: string, name: string): boolean => rel === "" && name === ".git";

function specialKind(st: { isFIFO(): boolean; isSocket(): boolean }): string {
  return st.isFIFO() ? "fifo" : st.isSocket() ? "socket" : "device";
}

/**
 * Applies `plan` to the workspace. Nothing is followed: every entry is replaced, never written
 * through, so a symlink or hard link in the workspace cannot carry a write elsewhere.
 */
export async function applyMerge(plan: MergePlan, upper: string, workspace: string): Promise<void> {
  const firstPath = new Map<number, string>();
  for (const step of plan.steps) {
    const dst = path.join(workspace, step.rel);
    const was = await lstat(dst).catch(() => null);
    if (step.op === "dir" && was?.isDirectory()) {
      await chmod(dst, step.mode);
      continue;
    }
    if (step.op === "dir" || step.op === "remove") {
      await rm(dst, { recursive: true, force: true });
      if (step.op === "dir") await mkdir(dst, { mode: step.mode });
      continue;
    }
    const tmp = path.join(path.dirname(dst), `.patchgate-merge-${randomBytes(6).toString("hex")}`);
    if (step.op === "symlink") await symlink(step.target, tmp);
    else await copyOrLink(step, path.join(upper, step.rel), tmp, firstPath);
    if (was?.isDirectory()) await rm(dst, { recursive: true, force: true });
    await rename(tmp, dst);
  }
}

async function copyOrLink(step: Extract<Step, { op: "file" }>, src: string, tmp: string, firstPath: Map<number, string>): Promise<void> {
  const first = firstPath.get(step.ino);
  if (first !== undefined) return link(first, tmp);
  firstPath.set(step.ino, path.join(path.dirname(tmp), path.basename(step.rel)));
  const from = await open(src, constants.O_RDONLY | constants.O_NOFOLLOW);
  await pipeline(from.createReadStream(), createWriteStream(tmp, { flags: "wx", mode: 0o600 }));
  await chmod(tmp, step.mode);
  await utimes(tmp, step.atime, step.mtime);
}

/** Bytes of the regular files at `p` (itself or below it), as the workspace holds them now. */
async function sizeOf(p: string): Promise<number> {
  const st = await lstat(p).catch(() => null);
  if (st === null) return 0;
  if (!st.isDirectory()) return st.isFile() ? st.size : 0;
  let total = 0;
  for (const name of await readdir(p)) total += await sizeOf(path.join(p, name));
  return total;
}

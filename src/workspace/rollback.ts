import { lstat, mkdtemp, readdir, rm, rmdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { gitOk } from "./git.js";
import { WorkspaceError } from "./workspace-error.js";

/**
 * Puts the workspace back to a snapshot tree (one `treeHash()` took before a command ran): every
 * file that is not ignored gets the content, mode and kind it had, and what the command added is
 * removed. Ignored files (build outputs, caches) are left alone. Writes only inside the workspace:
 * git checks out through no symlink, and removals never follow one.
 */

/** One path whose entry differs between two trees. */
interface TreeChange {
  path: string;
  /** It was in the snapshot (restore it), or the command made it (remove it). */
  existed: boolean;
}

/** Paths that differ between trees `a` and `b`, file by file (`-r`, no rename pairing). */
async function treeChanges(root: string, a: string, b: string): Promise<TreeChange[]> {
  const out = await gitOk(["diff-tree", "-r", "-z", "--no-renames", "--no-ext-diff", a, b, "--"], { cwd: root });
  const fields = out.split("\0");
  const changes: TreeChange[] = [];
  // Each entry is ":<old mode> <new mode> <old id> <new id> <status>" then the path.
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const oldMode = fields[i].slice(1).split(" ")[0];
    changes.push({ path: fields[i + 1], existed: oldMode !== "000000" });
  }
  return changes;
}

/** Whether a path's parent directories are real directories (none is a symlink or missing). */
async function parentsAreDirectories(root: string, rel: string): Promise<boolean> {
  let dir = root;
  for (const segment of rel.split("/").slice(0, -1)) {
    dir = path.join(dir, segment);
    const st = await lstat(dir).catch(() => null);
    if (!st?.isDirectory()) return false;
  }
  return true;
}

/** Removes what the command left at `rel` (a file, a link, a nested repository's directory) and parents it emptied. */
async function removeEntry(root: string, rel: string): Promise<void> {
  // Behind a symlink or a file the entry is not reachable by this path; that parent is itself a change.
  if (!(await parentsAreDirectories(root, rel))) return;
  await rm(path.join(root, rel), { recursive: true, force: true });
  for (let dir = path.dirname(rel); dir !== "."; dir = path.dirname(dir)) {
    const left = await readdir(path.join(root, dir)).catch(() => null);
    if (left === null || left.length > 0) break;
    await rmdir(path.join(root, dir)).catch(() => undefined);
  }
}

/** Writes the snapshot's version of each path; checkout-index replaces a symlink or file in the way by a directory. */
async function checkoutFrom(root: string, tree: string, paths: string[]): Promise<void> {
  if (paths.length === 0) return;
  const dir = await mkdtemp(path.join(tmpdir(), "patchgate-restore-"));
  const env = { GIT_INDEX_FILE: path.join(dir, "index") };
  try {
    await gitOk(["read-tree", tree], { cwd: root, env });
    await gitOk(["checkout-index", "-f", "-z", "--stdin"], { cwd: root, env, input: paths.map((p) => `${p}\0`).join("") });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The paths whose entry differs between two trees, sorted. */
export async function changedBetween(root: string, a: string, b: string): Promise<string[]> {
  return a === b ? [] : (await treeChanges(root, a, b)).map((c) => c.path).sort();
}

/**
 * Rolls the workspace back to `before`; returns the paths it put back, sorted. Repeats until the tree
 * is `before` again: a command that also changed a `.gitignore` hid its other files from the first
 * look, and they appear once the `.gitignore` is restored.
 */
export async function rollBack(root: string, before: string, snapshot: () => Promise<string>): Promise<string[]> {
  const touched = new Set<string>();
  for (let pass = 0; pass < 4; pass++) {
    const now = await snapshot();
    if (now === before) return [...touched].sort();
    const changes = await treeChanges(root, before, now);
    // Deepest first, so a directory emptied of what was added goes too.
    for (const c of [...changes].sort((x, y) => y.path.length - x.path.length)) await removeEntry(root, c.path);
    await checkoutFrom(
      root,
      before,
      changes.filter((c) => c.existed).map((c) => c.path),
    );
    for (const c of changes) touched.add(c.path);
  }
  throw new WorkspaceError("rollback_failed", `the workspace could not be put back to tree ${before.slice(0, 12)}`);
}

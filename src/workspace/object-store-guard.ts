import { lstat, readdir } from "node:fs/promises";
import { join } from "node:path";
import { WorkspaceError } from "./workspace-error.js";

/**
 * What makes git in a clone read objects from somewhere else: an alternates list, a `commondir` that
 * moves the whole repository, or an object directory (or pack) that is a symlink. A clone made by
 * cloneWorkspace has none of them; a sandboxed command can write `.git`, and the path it names would
 * be followed by Patchgate's own git on the host (where mirrors of other repositories live), so every
 * git operation on a workspace first finds none of them.
 */
const REDIRECTS = ["objects/info/alternates", "objects/info/http-alternates", "commondir"];

/** Throws `unsafe_config` unless `<root>/.git` keeps its objects in itself. */
export async function assertSelfContained(root: string): Promise<void> {
  const gitDir = join(root, ".git");
  for (const rel of REDIRECTS) {
    if (await lstat(join(gitDir, rel)).catch(() => null))
      throw new WorkspaceError("unsafe_config", `refusing to run git: ${root}/.git/${rel} makes it read objects from outside the clone`);
  }
  for (const rel of ["objects", "objects/pack"]) {
    const st = await lstat(join(gitDir, rel)).catch(() => null);
    if (st !== null && !st.isDirectory()) throw new WorkspaceError("unsafe_config", `refusing to run git: ${root}/.git/${rel} is not a directory`);
  }
  const packs = await readdir(join(gitDir, "objects/pack"), { withFileTypes: true }).catch(() => []);
  const linked = packs.find((e) => !e.isFile() && !e.isDirectory());
  if (linked) throw new WorkspaceError("unsafe_config", `refusing to run git: ${root}/.git/objects/pack/${linked.name} is not a regular file`);
}

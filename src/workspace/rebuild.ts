import { cloneWorkspace, type CloneOptions } from "./clone.js";
import type { GitWorkspace } from "./git-workspace.js";

/**
 * DESIGN §2: a session's workspace is base commit + stored patch, so any worker can rebuild it.
 * The caller compares treeHash() with the last recorded one to know the rebuild is faithful.
 */
export async function rebuildWorkspace(opts: Omit<CloneOptions, "ref"> & { baseCommit: string; patch: string }): Promise<GitWorkspace> {
  const { baseCommit, patch, ...clone } = opts;
  const ws = await cloneWorkspace({ ...clone, ref: baseCommit });
  await ws.applyPatch(patch);
  return ws;
}

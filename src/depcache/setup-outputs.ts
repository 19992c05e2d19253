import { gitOk } from "../workspace/git.js";

/**
 * What a setup left in the workspace, from git's point of view: untracked and ignored entries (a
 * directory git does not track is one entry, `node_modules/`), and tracked files it changed, which a
 * cache entry cannot reproduce on its own.
 */
export interface WorkspaceStatus {
  /** Untracked or ignored, without the trailing slash of a directory. */
  extra: string[];
  /** Tracked paths that differ from the index. */
  changed: string[];
}

export async function workspaceStatus(root: string, signal?: AbortSignal): Promise<WorkspaceStatus> {
  const out = await gitOk(["status", "--porcelain=v1", "-z", "--ignored=traditional", "--untracked-files=normal", "--no-renames"], { cwd: root, signal });
  const extra: string[] = [];
  const changed: string[] = [];
  for (const entry of out.split("\0")) {
    if (entry.length < 4) continue;
    const code = entry.slice(0, 2);
    const rel = entry.slice(3).replace(/\/$/, "");
    if (code === "??" || code === "!!") extra.push(rel);
    else changed.push(rel);
  }
  return { extra: extra.sort(), changed: changed.sort() };
}

/** The entries `after` has and `before` had not: what the setup created. */
export function createdBy(before: WorkspaceStatus, after: WorkspaceStatus): string[] {
  const had = new Set(before.extra);
  return after.extra.filter((p) => !had.has(p));
}

import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { StoredEvent } from "../session/events.js";
import { fold } from "../session/reducer.js";
import { gitOk } from "../workspace/git.js";

/**
 * The tree the runner judges. For a published session that is the commit itself, checked out on its
 * own: what a maintainer would merge, not the workspace it came from (which also holds setup output
 * and whatever else a process left there). An unpublished session is judged on its workspace.
 */
export async function judgedTree(events: readonly StoredEvent[], workspaceRoot: string, scratch: string): Promise<string> {
  const commit = fold(events).published?.commit;
  if (commit === undefined) return workspaceRoot;
  const out = path.join(scratch, "published");
  mkdirSync(out);
  const indexDir = mkdtempSync(path.join(tmpdir(), "patchgate-eval-index-"));
  try {
    const env = { GIT_INDEX_FILE: path.join(indexDir, "index") };
    await gitOk(["read-tree", `${commit}^{tree}`], { cwd: workspaceRoot, env });
    await gitOk(["checkout-index", "-a", "-f", `--prefix=${out}/`], { cwd: workspaceRoot, env });
  } finally {
    rmSync(indexDir, { recursive: true, force: true });
  }
  return out;
}

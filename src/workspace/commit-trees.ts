import { gitOk } from "./git.js";
import { Bounded } from "./session-snapshot.js";

/**
 * A commit id names its tree for ever, so asking git once per (clone, commit) is enough: the base's
 * tree, a parent's tree and the tree of a commit Patchgate just made are looked up many times a session.
 */
const known = new Bounded<string, string>(4096);

/** The tree of `commit` (a full commit id) in the clone at `root`; throws when the clone lacks it. */
export async function treeOfCommit(root: string, commit: string, signal?: AbortSignal): Promise<string> {
  const key = `${root}\0${commit}`;
  const hit = known.get(key);
  if (hit !== undefined) return hit;
  const tree = (await gitOk(["rev-parse", "--verify", `${commit}^{tree}`], { cwd: root, signal })).trim();
  if (/^[0-9a-f]{40,64}$/.test(commit)) known.set(key, tree);
  return tree;
}

/** Records the tree of a commit this process just made with commit-tree. */
export function rememberCommitTree(root: string, commit: string, tree: string): void {
  known.set(`${root}\0${commit}`, tree);
}

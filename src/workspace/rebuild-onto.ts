import { git, gitOk } from "./git.js";
import { withPublishIndex } from "./publish-index.js";
import { WorkspaceError } from "./workspace-error.js";

export type MergeOutcome = { ok: true; tree: string } | { ok: false; why: string; conflicts: string[] };

// The throwaway commit that carries the session's tree into the merge; it is never pushed.
const CARRIER = {
  GIT_AUTHOR_NAME: "Patchgate",
  GIT_AUTHOR_EMAIL: "patchgate@invalid",
  GIT_COMMITTER_NAME: "Patchgate",
  GIT_COMMITTER_EMAIL: "patchgate@invalid",
};

/**
 * The session's change (its published tree: `base` + `paths`, see publish-index.ts) merged onto
 * `onto`, a head that contains commits Patchgate did not make: a three-way merge with `base` as the
 * common ancestor, computed without touching the working tree. Clean → the merged tree; otherwise the
 * conflicting paths. A head that does not descend from `base` (the branch was rewritten) is not merged.
 */
export async function mergeOnto(root: string, base: string, onto: string, paths: readonly string[], signal?: AbortSignal): Promise<MergeOutcome> {
  if ((await git(["merge-base", "--is-ancestor", base, onto], { cwd: root, signal })).exitCode !== 0) {
    return { ok: false, why: `its history was rewritten: ${onto.slice(0, 12)} does not contain the session's base ${base.slice(0, 12)}`, conflicts: [] };
  }
  const tree = await withPublishIndex(root, base, paths, async (env) => (await gitOk(["write-tree"], { cwd: root, env, signal })).trim(), signal);
  const carrier = (await gitOk(["commit-tree", tree, "-p", base, "-m", "patchgate: session tree"], { cwd: root, env: CARRIER, signal })).trim();
  const r = await git(["merge-tree", "--write-tree", "--name-only", "--no-messages", onto, carrier], { cwd: root, signal });
  const [merged, ...conflicts] = r.stdout.split("\n").filter(Boolean);
  if (r.exitCode === 0) return { ok: true, tree: merged };
  if (r.exitCode === 1) return { ok: false, why: "the session's change conflicts with them", conflicts };
  throw new WorkspaceError("git_failed", `git merge-tree failed (exit ${r.exitCode}): ${r.stderr.trim()}`, r.stderr);
}

/**
 * Moves the working tree from the session's published tree to `tree` (the merge), and `branch` and
 * HEAD to `onto`, so that the next commit on `branch` has `onto` as its parent and the published tree
 * against `onto` is the session's change. Only the paths that differ between the two trees are
 * written; everything else the workspace holds (installed dependencies, build output) stays.
 */
export async function moveWorkingTree(
  root: string,
  base: string,
  branch: string,
  onto: string,
  paths: readonly string[],
  tree: string,
  signal?: AbortSignal,
): Promise<void> {
  await withPublishIndex(
    root,
    base,
    paths,
    async (env) => {
      const current = (await gitOk(["write-tree"], { cwd: root, env, signal })).trim();
      // Two-tree form over an index that is `current`: only the entries that differ from `tree` are
      // updated, and --reset lets them replace what setup or a test run left on those paths.
      await gitOk(["read-tree", "--reset", "-u", current, tree], { cwd: root, env, signal });
    },
    signal,
  );
  await gitOk(["update-ref", "-m", "patchgate: rebuilt on the branch's head", `refs/heads/${branch}`, onto], { cwd: root, signal });
  await gitOk(["symbolic-ref", "HEAD", `refs/heads/${branch}`], { cwd: root, signal });
  await gitOk(["reset", "--quiet", "--mixed"], { cwd: root, signal });
}

import { blobBase64, commitParts } from "../../workspace/commit-changes.js";
import type { Repo } from "../inbound/intent.js";
import type { Octokit } from "../octokit.js";
import { FatalError } from "../../errors/index.js";

/**
 * The session's commit, made again through GitHub's Git Data API so that GitHub signs it: the blobs
 * the commit's tree changes, a tree on the parent's, then the commit with no author or committer —
 * GitHub then makes the app both, and signs (shown as "Verified"). The message is the local
 * commit's, `Co-authored-by:` trailer included. The tree GitHub builds must be the local tree, the
 * one the test gate accepted: blob and tree ids are content hashes, so anything else is refused.
 *
 * Blobs go a few at a time: GitHub's secondary rate limits count concurrent and content-creating
 * requests, and the client's throttling waits out a `retry-after` when one is hit anyway.
 */
export const MAX_PARALLEL_BLOBS = 4;

class ApiCommitError extends FatalError {
  readonly kind = "api_commit_mismatch";
}

async function inPool<T>(items: readonly T[], size: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, worker));
}

export interface ApiCommit {
  sha: string;
  tree: string;
  verified: boolean;
}

export async function createApiCommit(
  octokit: Octokit,
  repo: Pick<Repo, "owner" | "repo">,
  root: string,
  local: string,
  signal?: AbortSignal,
): Promise<ApiCommit> {
  const where = { owner: repo.owner, repo: repo.repo };
  const parts = await commitParts(root, local, signal);
  const blobs = parts.changes.filter((c) => c.sha !== null && c.mode !== "160000");
  await inPool(blobs, MAX_PARALLEL_BLOBS, async (c) => {
    const { data } = await octokit.rest.git.createBlob({ ...where, content: await blobBase64(root, c.sha!, signal), encoding: "base64" });
    if (data.sha !== c.sha) throw new ApiCommitError(`GitHub stored ${c.path} as blob ${data.sha}, not ${c.sha}`);
  });
  let tree = parts.parentTree;
  if (parts.changes.length > 0) {
    const entries = parts.changes.map((c) => ({
      path: c.path,
      mode: c.mode as "100644",
      type: (c.mode === "160000" ? "commit" : "blob") as "blob",
      sha: c.sha,
    }));
    ({
      data: { sha: tree },
    } = await octokit.rest.git.createTree({ ...where, base_tree: parts.parentTree, tree: entries }));
  }
  if (tree !== parts.tree)
    throw new ApiCommitError(`GitHub built tree ${tree.slice(0, 12)}, not the tested tree ${parts.tree.slice(0, 12)}; nothing was published`);
  const { data: commit } = await octokit.rest.git.createCommit({ ...where, message: parts.message, tree, parents: [parts.parent] });
  return { sha: commit.sha, tree, verified: commit.verification?.verified === true };
}

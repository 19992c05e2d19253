import { mkdir, stat } from "node:fs/promises";
import path from "node:path";
import { tenantKey } from "../../session/tenant.js";
import { git, gitOk } from "../../workspace/git.js";
import { withMirrorLock } from "../../workspace/mirror-lock.js";
import type { GitAuth } from "../../workspace/types.js";
import type { PullPush } from "../inbound/pull-push.js";
import type { Octokit } from "../octokit.js";
import { judgeReceipts, RECEIPT_CONTEXT, type PullCommit, type ReceiptCheck, type ReceiptVerdict } from "./receipt-verdict.js";

/**
 * The `patchgate/receipt` status of a pull request Patchgate opened: its commits as GitHub lists them
 * (who made each), their receipts read and verified in the app's own bare clone of the repository
 * (one per tenant: installation and repository id), the verdict (./receipt-verdict.ts) posted on the
 * head. Safe to run again: it judges what GitHub holds now and posts the same status for the same head.
 */

/** GitHub lists at most this many commits of a pull request: beyond it, the rest cannot be judged. */
const MAX_PULL_COMMITS = 250;

/** Reads and verifies the receipt of each commit, in a git directory that has them and the notes. */
export type ReceiptChecker = (gitDir: string, commits: readonly string[]) => Promise<ReceiptCheck[]>;

export interface ReceiptStatusWork {
  octokit: Octokit;
  /** Where the app's receipt clones live, one bare repository per tenant. */
  dir: string;
  /** The repository's git URL and the auth for it (a fresh installation token). */
  url: string;
  auth: GitAuth;
  appLogin: string;
  check: ReceiptChecker;
  log: (line: string) => void;
}

async function pullCommits(octokit: Octokit, push: PullPush): Promise<PullCommit[]> {
  const where = { owner: push.repo.owner, repo: push.repo.repo, pull_number: push.pull, per_page: 100 };
  const all = await octokit.paginate(octokit.rest.pulls.listCommits, where);
  return all.map((c) => ({ sha: c.sha, author: c.author ? { login: c.author.login, type: c.author.type } : null }));
}

/**
 * The PR's branch and the notes, fetched into the tenant's bare clone under its lock (two jobs of one
 * repository never fetch into it at once). A glob for the notes: a repository without any is no error.
 */
async function fetchInto(w: ReceiptStatusWork, push: PullPush): Promise<string> {
  const dir = path.join(w.dir, `${tenantKey({ installationId: push.repo.installationId, repoId: push.repo.id })}.git`);
  await mkdir(w.dir, { recursive: true });
  await withMirrorLock(dir, undefined, async () => {
    if (!(await stat(path.join(dir, "HEAD")).catch(() => null))) await gitOk(["init", "--quiet", "--bare", dir], { cwd: w.dir });
    const refspecs = [`+refs/heads/${push.headRef}:refs/patchgate/pulls/${push.pull}`, "+refs/notes/*:refs/notes/*"];
    await gitOk(["-c", "gc.auto=0", "fetch", "--quiet", "--no-write-fetch-head", "--", w.url, ...refspecs], { cwd: dir, auth: w.auth });
  });
  return dir;
}

async function has(gitDir: string, sha: string): Promise<boolean> {
  return (await git(["cat-file", "-e", `${sha}^{commit}`], { cwd: gitDir })).exitCode === 0;
}

/** Judges the PR's commits now and posts the status on its head; returns what was posted (null: no commit). */
export async function postReceiptStatus(w: ReceiptStatusWork, push: PullPush): Promise<ReceiptVerdict | null> {
  const commits = await pullCommits(w.octokit, push);
  const head = commits.at(-1);
  if (!head) return null;
  let verdict: ReceiptVerdict;
  if (commits.length >= MAX_PULL_COMMITS) {
    verdict = { state: "failure", description: `more than ${MAX_PULL_COMMITS - 1} commits: GitHub does not list them all, so they cannot be checked` };
  } else {
    const gitDir = await fetchInto(w, push);
    // The branch moved on between the list and the fetch: the next event judges the new head.
    for (const c of commits) if (!(await has(gitDir, c.sha))) throw new Error(`#${push.pull}: ${c.sha.slice(0, 7)} is not on ${push.headRef} any more`);
    verdict = judgeReceipts(
      commits,
      await w.check(
        gitDir,
        commits.map((c) => c.sha),
      ),
      w.appLogin,
    );
  }
  await w.octokit.rest.repos.createCommitStatus({
    owner: push.repo.owner,
    repo: push.repo.repo,
    sha: head.sha,
    state: verdict.state,
    context: RECEIPT_CONTEXT,
    description: verdict.description,
  });
  w.log(`#${push.pull} ${RECEIPT_CONTEXT} on ${head.sha.slice(0, 7)}: ${verdict.state} (${verdict.description})`);
  return verdict;
}

import { git, gitOk } from "./git.js";
import { rememberCommitTree, treeOfCommit } from "./commit-trees.js";
import { withPublishIndex } from "./publish-index.js";
import type { CommitOptions } from "./types.js";
import { WorkspaceError } from "./workspace-error.js";

type Person = { name: string; email: string };

/** Newlines or angle brackets in a name would forge extra trailers or a different identity. */
function checkPerson(p: Person): void {
  const bad = /[\n\r<>\0]/;
  if (!p.name.trim() || !p.email.trim() || bad.test(p.name) || bad.test(p.email)) {
    throw new WorkspaceError("invalid_argument", `invalid identity ${JSON.stringify(p)}`);
  }
}

function commitMessage(message: string, coAuthors: Person[] = []): string {
  const trailers = coAuthors.map((p) => `Co-authored-by: ${p.name} <${p.email}>`);
  const body = message.trim();
  return trailers.length ? `${body}\n\n${trailers.join("\n")}\n` : `${body}\n`;
}

/**
 * Names every git accepts (check-ref-format's rules are stricter only for other characters and forms):
 * slash-separated parts of letters, digits, `_`, `-` and inner dots, none starting with `.` or `-` or
 * ending with `.` or `.lock`. Anything else is asked of git.
 */
const PLAIN_PART = /^(?![.-])[A-Za-z0-9._-]*[A-Za-z0-9_-]$/;
const plainBranch = (b: string) => b.split("/").every((part) => PLAIN_PART.test(part) && !part.includes("..") && !part.endsWith(".lock"));

/** A branch name git accepts and that cannot be read as an option. */
export async function checkBranch(root: string, branch: string): Promise<void> {
  const ok = !branch.startsWith("-") && (plainBranch(branch) || (await git(["check-ref-format", `refs/heads/${branch}`], { cwd: root })).exitCode === 0);
  if (!ok) throw new WorkspaceError("invalid_argument", `invalid branch name ${JSON.stringify(branch)}`);
}

/**
 * Commits the published tree (base + `opts.paths`, see publish-index.ts) with plumbing: commit-tree
 * runs no hooks whatever the config says, and update-ref with the expected old value fails instead of
 * overwriting a branch that moved meanwhile. The tree is built by the same function as
 * publishedTree(), the hash the test gate accepted; `expectTree` makes that a check, not a promise.
 */
export async function commitWorkingTree(
  root: string,
  base: string,
  opts: CommitOptions,
  signal?: AbortSignal,
  /** How the published tree is built (default: a fresh publish index); a workspace passes its session's. */
  published: (paths: readonly string[]) => Promise<string> = (paths) =>
    withPublishIndex(root, base, paths, async (env) => (await gitOk(["write-tree"], { cwd: root, env, signal })).trim(), signal),
): Promise<string> {
  for (const p of [opts.author, ...(opts.coAuthors ?? [])]) checkPerson(p);
  await checkBranch(root, opts.branch);
  const ref = `refs/heads/${opts.branch}`;
  const existing = await git(["rev-parse", "--verify", "--quiet", `${ref}^{commit}`], { cwd: root });
  const parent = existing.exitCode === 0 ? existing.stdout.trim() : base;
  const tree = await published(opts.paths);
  if (opts.expectTree !== undefined && tree !== opts.expectTree) {
    throw new WorkspaceError("tree_mismatch", `refusing to commit tree ${tree.slice(0, 12)}: the accepted tree is ${opts.expectTree.slice(0, 12)}`);
  }
  const parentTree = await treeOfCommit(root, parent, signal);
  if (tree === parentTree && !opts.allowEmpty) {
    throw new WorkspaceError("nothing_to_commit", `nothing to commit on ${opts.branch}: the tree equals ${parent}'s`);
  }
  const identity = {
    GIT_AUTHOR_NAME: opts.author.name,
    GIT_AUTHOR_EMAIL: opts.author.email,
    GIT_COMMITTER_NAME: opts.author.name,
    GIT_COMMITTER_EMAIL: opts.author.email,
  };
  const input = commitMessage(opts.message, opts.coAuthors);
  const sha = (await gitOk(["commit-tree", tree, "-p", parent, "-F", "-"], { cwd: root, env: identity, input })).trim();
  rememberCommitTree(root, sha, tree);
  // An empty old value means "must not exist yet".
  await gitOk(["update-ref", "-m", "patchgate: commit", ref, sha, existing.exitCode === 0 ? parent : ""], { cwd: root });
  // Leave the clone on the branch with an index that matches it; the working tree is not touched.
  await gitOk(["symbolic-ref", "HEAD", ref], { cwd: root });
  await gitOk(["reset", "--quiet", "--mixed"], { cwd: root, signal });
  return sha;
}

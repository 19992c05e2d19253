import { mkdtemp, rm, unlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { DiffInfo } from "../session/types.js";
import { checkBranch, commitWorkingTree } from "./commit.js";
import { treeOfCommit } from "./commit-trees.js";
import { git, gitOk, GIT_LOCAL_TIMEOUT_MS } from "./git.js";
import { assertSafeRepoConfig } from "./repo-config-guard.js";
import { withDeadline } from "./deadline.js";
import { changedBetween, rollBack } from "./rollback.js";
import { publishedChanges, publishedDiff, publishedTree } from "./published-snapshot.js";
import { withSnapshotIndex } from "./snapshot-index.js";
import { findSpecialFiles, type SpecialEntry } from "./tree-walk.js";
import { GitBranchRemote } from "./git-branch-remote.js";
import { mergeOnto, moveWorkingTree } from "./rebuild-onto.js";
import type { ChangedPath, CommitOptions, GitAuth, Workspace } from "./types.js";
import { WorkspaceError } from "./workspace-error.js";

export interface PushOptions {
  /** A URL. A remote name is accepted only without auth: .git/config is writable from the sandbox,
   *  and a rewritten remote URL must not receive the token. */
  remote: string;
  branch: string;
  auth?: GitAuth;
  signal?: AbortSignal;
}

/** A rejected push is an answer, not an exception: the publisher decides (retry, report, fail). */
export type PushResult = { ok: true; commit: string } | { ok: false; exitCode: number | null; stderr: string; stdout: string };

/**
 * A clone made by cloneWorkspace/openWorkspace. Every operation first checks the repo config is still
 * safe, is bounded in time (git.ts), and stops when the signal given to `withSignal` aborts.
 */
export class GitWorkspace implements Workspace {
  constructor(
    readonly root: string,
    readonly baseCommit: string,
    private readonly signal?: AbortSignal,
  ) {}

  /** The same clone, its operations bound to `signal` (a session's `/agent stop`). */
  withSignal(signal: AbortSignal | undefined): GitWorkspace {
    return new GitWorkspace(this.root, this.baseCommit, signal);
  }

  /** The tree of `commit`, or null when the clone does not have it. */
  async commitTree(commit: string): Promise<string | null> {
    const r = await git(["rev-parse", "--verify", "--quiet", `${commit}^{tree}`], { cwd: this.root, signal: this.signal });
    return r.exitCode === 0 ? r.stdout.trim() : null;
  }

  /** The first parent of `commit` in the clone, or null (a root commit, or one the clone lacks). */
  async firstParent(commit: string): Promise<string | null> {
    const r = await git(["rev-parse", "--verify", "--quiet", `${commit}^1^{commit}`], { cwd: this.root, signal: this.signal });
    return r.exitCode === 0 ? r.stdout.trim() : null;
  }

  /** Where the clone's own `branch` points, or null. */
  async branchHead(branch: string): Promise<string | null> {
    await checkBranch(this.root, branch);
    const r = await git(["rev-parse", "--verify", "--quiet", `refs/heads/${branch}^{commit}`], { cwd: this.root, signal: this.signal });
    return r.exitCode === 0 ? r.stdout.trim() : null;
  }

  /**
   * Points the clone's own `branch` at `commit` when the clone has no such branch yet (a clone
   * rebuilt on another machine), so the next commit continues it instead of starting from the base.
   */
  async continueBranch(branch: string, commit: string): Promise<void> {
    if ((await this.branchHead(branch)) !== null || (await this.commitTree(commit)) === null) return;
    await gitOk(["update-ref", "-m", "patchgate: continue the pushed branch", `refs/heads/${branch}`, commit, ""], { cwd: this.root, signal: this.signal });
  }

  /**
   * The clone's `branch` moves from `from` to `to`, a commit with the same tree that the remote made
   * (GitHub's signed twin of the local commit, fetched): the next commit continues from it.
   */
  async moveBranch(branch: string, to: string, from: string): Promise<void> {
    await checkBranch(this.root, branch);
    await gitOk(["update-ref", "-m", "patchgate: the pushed commit", `refs/heads/${branch}`, to, from], { cwd: this.root, signal: this.signal });
  }

  /** The remote end of `branch`'s lease (publish/branch-lease.ts), at `url`. */
  branchRemote(url: string, auth?: GitAuth): GitBranchRemote {
    return new GitBranchRemote(this.root, url, auth, this.signal);
  }

  /**
   * The session's change (its published tree: base + `paths`) rebuilt on `onto`, a head of `branch`
   * with commits Patchgate did not make: the working tree becomes the merge, and the returned
   * workspace has `onto` as its base. Nothing is touched when the change does not merge cleanly.
   */
  async rebuildOnto(
    branch: string,
    onto: string,
    paths: readonly string[],
  ): Promise<{ ok: true; workspace: GitWorkspace } | { ok: false; why: string; conflicts: string[] }> {
    await assertSafeRepoConfig(this.root);
    await checkBranch(this.root, branch);
    const merged = await mergeOnto(this.root, this.baseCommit, onto, paths, this.signal);
    if (!merged.ok) return merged;
    await moveWorkingTree(this.root, this.baseCommit, branch, onto, paths, merged.tree, this.signal);
    return { ok: true, workspace: new GitWorkspace(this.root, onto, this.signal) };
  }

  // The published tree, its diff and its changed paths come from one persistent index per session,
  // re-checked against the files' bytes on every call (published-snapshot.ts).
  async publishedTree(paths: readonly string[]): Promise<string> {
    await assertSafeRepoConfig(this.root);
    return publishedTree(this.root, this.baseCommit, paths, this.signal);
  }

  async diff(paths: readonly string[]): Promise<DiffInfo> {
    await assertSafeRepoConfig(this.root);
    return publishedDiff(this.root, this.baseCommit, paths, this.signal);
  }

  async changedPaths(paths: readonly string[]): Promise<ChangedPath[]> {
    await assertSafeRepoConfig(this.root);
    return publishedChanges(this.root, this.baseCommit, paths, this.signal);
  }

  /** A git tree id of the working tree: equal trees give equal ids on any machine. */
  async treeHash(alsoPaths: readonly string[] = []): Promise<string> {
    await assertSafeRepoConfig(this.root);
    return withSnapshotIndex(this.root, this.baseCommit, (env) => this.writeTree(env), this.signal, alsoPaths);
  }

  async changedSince(tree: string, alsoPaths: readonly string[] = []): Promise<string[]> {
    return changedBetween(this.root, tree, await this.treeHash(alsoPaths));
  }

  async rollBack(tree: string, alsoPaths: readonly string[] = []): Promise<string[]> {
    await assertSafeRepoConfig(this.root);
    return rollBack(this.root, tree, () => this.treeHash(alsoPaths));
  }

  private async writeTree(env: { GIT_INDEX_FILE: string }): Promise<string> {
    return (await gitOk(["write-tree"], { cwd: this.root, env, signal: this.signal })).trim();
  }

  async commit(opts: CommitOptions): Promise<string> {
    await assertSafeRepoConfig(this.root);
    return commitWorkingTree(this.root, this.baseCommit, opts, this.signal, (paths) => publishedTree(this.root, this.baseCommit, paths, this.signal));
  }

  async treeOf(commit: string): Promise<string> {
    if (!/^[0-9a-f]{40,64}$/.test(commit)) throw new WorkspaceError("invalid_argument", `not a commit id: ${JSON.stringify(commit)}`);
    return treeOfCommit(this.root, commit, this.signal);
  }

  async push(opts: PushOptions): Promise<PushResult> {
    if (opts.remote.startsWith("-") || (opts.auth && !/^[a-z][a-z0-9+.-]*:\/\//i.test(opts.remote))) {
      throw new WorkspaceError("invalid_argument", `push needs a remote URL, got ${JSON.stringify(opts.remote)}`);
    }
    await assertSafeRepoConfig(this.root);
    await checkBranch(this.root, opts.branch);
    const ref = `refs/heads/${opts.branch}`;
    const commit = (await gitOk(["rev-parse", "--verify", `${ref}^{commit}`], { cwd: this.root })).trim();
    // Never forced: a branch that moved is refused; replacing one goes through a lease (git-branch-remote.ts).
    const refspec = `${ref}:${ref}`;
    const r = await git(["push", "--porcelain", "--no-verify", opts.remote, refspec], {
      cwd: this.root,
      auth: opts.auth,
      signal: opts.signal ?? this.signal,
    });
    return r.exitCode === 0 ? { ok: true, commit } : { ok: false, exitCode: r.exitCode, stderr: r.stderr, stdout: r.stdout };
  }

  async ignoredAmong(rels: readonly string[]): Promise<Set<string>> {
    if (rels.length === 0) return new Set();
    await assertSafeRepoConfig(this.root);
    // Exit 1: none of them is ignored.
    const r = await git(["check-ignore", "--stdin", "-z"], { cwd: this.root, input: rels.map((p) => `${p}\0`).join(""), signal: this.signal });
    if (r.exitCode !== 0 && r.exitCode !== 1) throw new WorkspaceError("git_failed", `git check-ignore failed: ${r.stderr.trim()}`, r.stderr);
    return new Set(r.stdout.split("\0").filter((p) => p !== ""));
  }

  /**
   * A command can leave FIFOs, sockets or devices in the tree; none can be committed, and one named
   * .gitignore stalls git. Those outside ignored directories are deleted; the list says which.
   */
  async removeSpecialFiles(): Promise<SpecialEntry[]> {
    const found = await withDeadline("looking for special files", GIT_LOCAL_TIMEOUT_MS, this.signal, (s) => findSpecialFiles(this.root, s));
    const own = found.filter((f) => !f.viaSymlink);
    for (const f of own) await unlink(path.join(this.root, f.rel)).catch(() => undefined);
    return own;
  }

  async restore(patch: string, paths: readonly string[]): Promise<string[]> {
    await assertSafeRepoConfig(this.root);
    const put = await this.rollBack(await this.treeOfPatch(patch), paths);
    if ((await this.diff(paths)).patch !== patch) throw new WorkspaceError("patch_failed", "the workspace could not be put back to its recorded state");
    return put;
  }

  /** The tree of base + `patch`, built in a throwaway index: the working tree is not touched. */
  private async treeOfPatch(patch: string): Promise<string> {
    if (patch === "") return treeOfCommit(this.root, this.baseCommit, this.signal);
    const dir = await mkdtemp(path.join(tmpdir(), "patchgate-restore-"));
    const env = { GIT_INDEX_FILE: path.join(dir, "index") };
    const signal = this.signal;
    try {
      await gitOk(["read-tree", `${this.baseCommit}^{tree}`], { cwd: this.root, env, signal });
      if (patch !== "") {
        const r = await git(["apply", "--cached", "--whitespace=nowarn", "-"], { cwd: this.root, env, input: patch, signal });
        if (r.exitCode !== 0) throw new WorkspaceError("patch_failed", `the recorded patch does not apply to the base: ${r.stderr.trim()}`, r.stderr);
      }
      return (await gitOk(["write-tree"], { cwd: this.root, env, signal })).trim();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /** Applies a patch from diff() to the working tree: base + stored patch rebuilds the session's tree. */
  async applyPatch(patch: string): Promise<void> {
    if (patch === "") return; // git apply rejects empty input; an empty diff means nothing to do
    await assertSafeRepoConfig(this.root);
    const r = await git(["apply", "--whitespace=nowarn", "-"], { cwd: this.root, input: patch, signal: this.signal });
    if (r.exitCode !== 0) throw new WorkspaceError("patch_failed", `patch does not apply: ${r.stderr.trim()}`, r.stderr);
  }
}

import type { DiffInfo } from "../session/types.js";
import { checkBranch, commitWorkingTree } from "./commit.js";
import { changedPathsSnapshot, diffSnapshot } from "./diff.js";
import { git, gitOk } from "./git.js";
import { assertSafeRepoConfig } from "./repo-config-guard.js";
import { changedBetween, rollBack } from "./rollback.js";
import { withSnapshotIndex } from "./snapshot-index.js";
import type { ChangedPath, CommitOptions, GitAuth, Workspace } from "./types.js";
import { WorkspaceError } from "./workspace-error.js";

export interface PushOptions {
  /** A URL. A remote name is accepted only without auth: .git/config is writable from the sandbox,
   *  and a rewritten remote URL must not receive the token. */
  remote: string;
  branch: string;
  auth?: GitAuth;
  force?: boolean;
  signal?: AbortSignal;
}

/** A rejected push is an answer, not an exception: the publisher decides (retry, report, fail). */
export type PushResult = { ok: true; commit: string } | { ok: false; exitCode: number | null; stderr: string; stdout: string };

/** A clone made by cloneWorkspace/openWorkspace. Every operation first checks the repo config is still safe. */
export class GitWorkspace implements Workspace {
  constructor(
    readonly root: string,
    readonly baseCommit: string,
  ) {}

  async diff(): Promise<DiffInfo> {
    await assertSafeRepoConfig(this.root);
    return withSnapshotIndex(this.root, this.baseCommit, (env) => diffSnapshot(this.root, this.baseCommit, env));
  }

  /** The git tree id of the working tree: equal trees give equal ids on any machine, and it is the
   *  very tree commit() records, so "tests passed on this hash" means "on what is pushed". */
  async treeHash(): Promise<string> {
    await assertSafeRepoConfig(this.root);
    return withSnapshotIndex(this.root, this.baseCommit, async (env) =>
      (await gitOk(["write-tree"], { cwd: this.root, env })).trim(),
    );
  }

  async changedPaths(): Promise<ChangedPath[]> {
    await assertSafeRepoConfig(this.root);
    return withSnapshotIndex(this.root, this.baseCommit, (env) => changedPathsSnapshot(this.root, this.baseCommit, env));
  }

  async changedSince(tree: string): Promise<string[]> {
    return changedBetween(this.root, tree, await this.treeHash());
  }

  async rollBack(tree: string): Promise<string[]> {
    await assertSafeRepoConfig(this.root);
    return rollBack(this.root, tree, () => this.treeHash());
  }

  async commit(opts: CommitOptions): Promise<string> {
    await assertSafeRepoConfig(this.root);
    return commitWorkingTree(this.root, this.baseCommit, opts);
  }

  async push(opts: PushOptions): Promise<PushResult> {
    if (opts.remote.startsWith("-") || (opts.auth && !/^[a-z][a-z0-9+.-]*:\/\//i.test(opts.remote))) {
      throw new WorkspaceError("invalid_argument", `push needs a remote URL, got ${JSON.stringify(opts.remote)}`);
    }
    await assertSafeRepoConfig(this.root);
    await checkBranch(this.root, opts.branch);
    const ref = `refs/heads/${opts.branch}`;
    const commit = (await gitOk(["rev-parse", "--verify", `${ref}^{commit}`], { cwd: this.root })).trim();
    const refspec = `${opts.force ? "+" : ""}${ref}:${ref}`;
    const r = await git(["push", "--porcelain", "--no-verify", opts.remote, refspec], {
      cwd: this.root,
      auth: opts.auth,
      signal: opts.signal,
    });
    return r.exitCode === 0 ? { ok: true, commit } : { ok: false, exitCode: r.exitCode, stderr: r.stderr, stdout: r.stdout };
  }

  /** Applies a patch from diff() to the working tree: base + stored patch rebuilds the session's tree. */
  async applyPatch(patch: string): Promise<void> {
    if (patch === "") return; // git apply rejects empty input; an empty diff means nothing to do
    await assertSafeRepoConfig(this.root);
    const r = await git(["apply", "--whitespace=nowarn", "-"], { cwd: this.root, input: patch });
    if (r.exitCode !== 0) throw new WorkspaceError("patch_failed", `patch does not apply: ${r.stderr.trim()}`, r.stderr);
  }
}

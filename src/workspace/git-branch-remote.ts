import { git, gitOk } from "./git.js";
import type { GitAuth } from "./types.js";
import { WorkspaceError } from "./workspace-error.js";

/**
 * The remote side of a lease (publish/branch-lease.ts), through git: `ls-remote` to look, a fetch
 * into a private ref to have the history, and `push --force-with-lease=<ref>:<expected>` to move the
 * branch only if it is still where we saw it. The URL carries no credentials; the token travels in
 * the per-call header (git.ts), never in .git/config.
 */
export class GitBranchRemote {
  constructor(
    private readonly root: string,
    private readonly url: string,
    private readonly auth?: GitAuth,
    private readonly signal?: AbortSignal,
  ) {
    if (url.startsWith("-")) throw new WorkspaceError("invalid_argument", `remote URL may not start with "-": ${url}`);
  }

  private call(args: string[]) {
    return git(args, { cwd: this.root, auth: this.auth, signal: this.signal });
  }

  async head(branch: string): Promise<string | null> {
    const ref = `refs/heads/${branch}`;
    const out = await gitOk(["ls-remote", "--", this.url, ref], { cwd: this.root, auth: this.auth, signal: this.signal });
    const line = out.split("\n").find((l) => l.endsWith(`\t${ref}`));
    if (!line) return null;
    const sha = line.split("\t")[0];
    // Into a ref of our own, so the commits stay while we judge them (never over refs/heads/*).
    await gitOk(["fetch", "--quiet", "--no-tags", "--", this.url, `+${ref}:refs/patchgate/remote/${branch}`], {
      cwd: this.root,
      auth: this.auth,
      signal: this.signal,
    });
    return sha;
  }

  /** The branch's history as the remote has it now, into the private ref (after a push made elsewhere). */
  async fetch(branch: string): Promise<void> {
    await gitOk(["fetch", "--quiet", "--no-tags", "--", this.url, `+refs/heads/${branch}:refs/patchgate/remote/${branch}`], {
      cwd: this.root,
      auth: this.auth,
      signal: this.signal,
    });
  }

  async update(branch: string, commit: string, expected: string | null): Promise<"updated" | "stale"> {
    const ref = `refs/heads/${branch}`;
    const r = await this.call(["push", "--porcelain", "--no-verify", `--force-with-lease=${ref}:${expected ?? ""}`, "--", this.url, `${commit}:${ref}`]);
    if (r.exitCode === 0) return "updated";
    // Porcelain marks a refused ref with "!"; a lease that no longer holds reads "stale info", a
    // branch that exists when it should not (or moved on) "fetch first" / "already exists".
    if (/^!\t.*\[rejected\] \((stale info|fetch first|already exists|non-fast-forward)\)/m.test(r.stdout)) return "stale";
    throw new WorkspaceError("git_failed", `git push of ${branch} was refused: ${(r.stderr.trim() || r.stdout.trim()).split("\n").at(-1) ?? ""}`, r.stderr);
  }

  async dropped(head: string, commit: string): Promise<string[]> {
    const out = await gitOk(["rev-list", head, `^${commit}`, "--"], { cwd: this.root, signal: this.signal });
    return out.split("\n").filter(Boolean);
  }

  async contains(commit: string, ancestor: string): Promise<boolean> {
    return (await this.call(["merge-base", "--is-ancestor", ancestor, commit])).exitCode === 0;
  }
}

import { lstat } from "node:fs/promises";
import { join } from "node:path";
import { gitOk } from "./git.js";
import { WorkspaceError } from "./workspace-error.js";

/**
 * Keys a clone made by cloneWorkspace has, and nothing that makes git run a program or read more
 * config. The `-c` flags in git.ts cover hooks and fsmonitor, but git has many more ways to run code
 * from config (filter.*.clean via .gitattributes, diff.*.textconv, core.sshCommand, include.path,
 * core.worktree, remote.*.receivepack…). Test commands run with the workspace writable, so before
 * each operation the repo config is checked against this allowlist rather than a denylist.
 */
const ALLOWED: readonly RegExp[] = [
  /^core\.(repositoryformatversion|filemode|bare|logallrefupdates|ignorecase|precomposeunicode|symlinks)$/,
  /^extensions\.objectformat$/,
  /^remote\.[^\n]+\.(url|fetch)$/,
  /^branch\.[^\n]+\.(remote|merge)$/,
];

/** Throws `unsafe_config` unless `<root>/.git` is a plain directory whose config keys are all allowed. */
export async function assertSafeRepoConfig(root: string): Promise<void> {
  // A `.git` file or symlink could point git at another directory with its own config and hooks.
  const st = await lstat(join(root, ".git")).catch(() => null);
  if (!st?.isDirectory()) throw new WorkspaceError("unsafe_config", `${root}/.git is not a directory`);
  // --local reads .git/config alone and does not follow include.path (which would be listed, and refused).
  const out = await gitOk(["config", "--local", "--list", "--name-only", "-z"], { cwd: root });
  const refused = out
    .split("\0")
    .filter((k) => k !== "" && !ALLOWED.some((re) => re.test(k)));
  if (refused.length > 0) {
    throw new WorkspaceError("unsafe_config", `refusing to run git: .git/config sets ${refused.join(", ")}`);
  }
}

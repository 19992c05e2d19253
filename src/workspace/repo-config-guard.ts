import { lstat } from "node:fs/promises";
import { join } from "node:path";
import { gitOk } from "./git.js";
import { assertSelfContained } from "./object-store-guard.js";
import { settled, statKey } from "./stat-tick.js";
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

/**
 * The config file's identity as stat sees it, for each root whose config was last found safe. Any
 * write changes ctime (which no process can set back), a rename changes the inode; so an equal key
 * means the same bytes, provided the write came after the file's ctime tick had passed (see `settled`).
 */
const verified = new Map<string, string>();
const MAX_VERIFIED = 1000;

async function configStat(root: string): Promise<{ key: string; ctimeNs: bigint } | null> {
  const st = await lstat(join(root, ".git", "config"), { bigint: true }).catch(() => null);
  if (!st?.isFile()) return null;
  return { key: statKey(st), ctimeNs: st.ctimeNs };
}

/**
 * Throws `unsafe_config` unless `<root>/.git` is a plain directory that keeps its objects in itself
 * (./object-store-guard.ts) and whose config keys are all allowed.
 */
export async function assertSafeRepoConfig(root: string): Promise<void> {
  // A `.git` file or symlink could point git at another directory with its own config and hooks.
  const st = await lstat(join(root, ".git")).catch(() => null);
  if (!st?.isDirectory()) throw new WorkspaceError("unsafe_config", `${root}/.git is not a directory`);
  await assertSelfContained(root);
  const now = Date.now();
  const before = await configStat(root);
  if (before !== null && verified.get(root) === before.key) return;
  verified.delete(root);
  // --local reads .git/config alone and does not follow include.path (which would be listed, and refused).
  const out = await gitOk(["config", "--local", "--list", "--name-only", "-z"], { cwd: root });
  const refused = out.split("\0").filter((k) => k !== "" && !ALLOWED.some((re) => re.test(k)));
  if (refused.length > 0) {
    throw new WorkspaceError("unsafe_config", `refusing to run git: .git/config sets ${refused.join(", ")}`);
  }
  // Remembered only when the stat taken before git read the file is still the file's and its tick is over.
  if (before === null || (await configStat(root))?.key !== before.key || !settled(before.ctimeNs, now)) return;
  if (verified.size >= MAX_VERIFIED) verified.delete(verified.keys().next().value!);
  verified.set(root, before.key);
}

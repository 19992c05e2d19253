import { randomBytes } from "node:crypto";
import { mkdir, readdir, realpath, rename, rm } from "node:fs/promises";
import path, { basename, dirname, resolve } from "node:path";
import { git, gitOk } from "./git.js";
import { rememberCommitTree } from "./commit-trees.js";
import { GitWorkspace } from "./git-workspace.js";
import { evictMirrors, refreshMirror } from "./mirror.js";
import type { MirrorUse } from "./mirror-settings.js";
import { isUrl, splitCredentials } from "./remote-url.js";
import { assertSafeRepoConfig } from "./repo-config-guard.js";
import type { GitAuth } from "./types.js";
import { WorkspaceError } from "./workspace-error.js";

export interface CloneOptions {
  /** A local path or a URL; credentials in a URL are moved to a header (see remote-url.ts). */
  source: string;
  /** Must not exist, or be empty. */
  dir: string;
  /** Branch, tag, commit id or any fetchable ref (refs/pull/1/head); default: the remote's HEAD. */
  ref?: string;
  auth?: GitAuth;
  signal?: AbortSignal;
  /** A URL source takes what it can from its tenant's mirror (mirror.ts); a local path never does. */
  mirror?: MirrorUse;
}

/**
 * Clones `source` into `dir`, checks out `ref` detached, and records that commit as the base. A clone
 * made with a mirror copies the objects it takes from it (`--dissociate`) before anything else sees the
 * clone: the workspace is self-contained, so no sandbox ever needs, or gets, a view of a mirror.
 */
export async function cloneWorkspace(opts: CloneOptions): Promise<GitWorkspace> {
  const { url, auth } = splitCredentials(opts.source, opts.auth);
  for (const [what, v] of [
    ["source", url],
    ["ref", opts.ref ?? ""],
  ]) {
    if (v.startsWith("-")) throw new WorkspaceError("invalid_argument", `${what} may not start with "-": ${v}`);
  }
  const dir = resolve(opts.dir);
  const entries = await readdir(dir).catch(() => []);
  if (entries.length > 0) throw new WorkspaceError("dir_not_empty", `clone target ${dir} is not empty`);
  await mkdir(dirname(dir), { recursive: true });
  const call = { auth, signal: opts.signal };
  const noCheckout = opts.ref === undefined ? [] : ["--no-checkout"];
  const reference: string[] = [];
  if (opts.mirror && isUrl(url)) {
    const mirror = await refreshMirror(opts.mirror.settings, opts.mirror.tenant, url, auth, opts.signal);
    await evictMirrors(opts.mirror.settings, mirror).catch(() => undefined); // space is best effort; the clone is not
    reference.push("--reference", mirror, "--dissociate");
  }
  // The clone is made beside `dir` and renamed into it once checked out: a process killed half-way
  // (a `.git` with every object but no files yet) leaves nothing at `dir` that could pass for the
  // session's workspace, only a staging directory the next attempt clears.
  await removeCutClones(dir);
  const staging = `${dir}${STAGING}${randomBytes(6).toString("hex")}`;
  let base: string;
  let tree: string;
  try {
    await gitOk(["clone", "--quiet", ...reference, ...noCheckout, "--", url, staging], { cwd: dirname(dir), ...call });
    const at = await realpath(staging);
    if (opts.ref !== undefined) {
      const sha = await resolveRef(at, opts.ref, { ...call, cwd: at });
      await gitOk(["checkout", "--quiet", "--detach", sha], { cwd: at, signal: opts.signal });
    }
    [base, tree] = (await gitOk(["rev-parse", "HEAD^{commit}", "HEAD^{tree}"], { cwd: at })).trim().split("\n") as [string, string];
    await rename(staging, dir);
  } catch (e) {
    await rm(staging, { recursive: true, force: true }).catch(() => undefined);
    throw e;
  }
  const root = await realpath(dir);
  rememberCommitTree(root, base, tree);
  return new GitWorkspace(root, base);
}

/** What marks a clone in the making: `<dir>.cloning-<random>`, beside the workspace it becomes. */
const STAGING = ".cloning-";

/**
 * Staging clones an earlier attempt at `dir` left when it died. Best effort: a git process the dead
 * attempt started may still be writing into one for a moment, and a leftover costs only space.
 */
async function removeCutClones(dir: string): Promise<void> {
  const prefix = `${basename(dir)}${STAGING}`;
  const names = await readdir(dirname(dir)).catch(() => [] as string[]);
  for (const name of names.filter((n) => n.startsWith(prefix)))
    await rm(path.join(dirname(dir), name), { recursive: true, force: true }).catch(() => undefined);
}

/** First what the clone already has (remote branch, tag, commit id), else fetch it by name. */
async function resolveRef(root: string, ref: string, call: { cwd: string; auth?: GitAuth; signal?: AbortSignal }): Promise<string> {
  for (const candidate of [`refs/remotes/origin/${ref}`, `refs/tags/${ref}`, ref]) {
    const r = await git(["rev-parse", "--verify", "--quiet", `${candidate}^{commit}`], { cwd: root });
    if (r.exitCode === 0) return r.stdout.trim();
  }
  await gitOk(["fetch", "--quiet", "--no-tags", "origin", ref], call);
  return (await gitOk(["rev-parse", "--verify", "FETCH_HEAD^{commit}"], { cwd: root })).trim();
}

/**
 * Reopens an existing clone (after a restart) with the base the session recorded. A clone that reads
 * objects from outside itself (one an older Patchgate made by reference to a mirror) is refused: the
 * caller clones again, self-contained.
 */
export async function openWorkspace(dir: string, baseCommit: string): Promise<GitWorkspace> {
  const root = await realpath(dir);
  const top = (await gitOk(["rev-parse", "--show-toplevel"], { cwd: root })).trim();
  if (top !== root) throw new WorkspaceError("invalid_argument", `${dir} is not the root of a clone (root is ${top})`);
  await assertSafeRepoConfig(root);
  const r = await git(["rev-parse", "--verify", "--quiet", `${baseCommit}^{commit}`], { cwd: root });
  if (r.exitCode !== 0 || r.stdout.trim() !== baseCommit) {
    throw new WorkspaceError("invalid_argument", `base commit ${baseCommit} is not a full commit id in ${root}`);
  }
  return new GitWorkspace(root, baseCommit);
}

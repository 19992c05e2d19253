import { lstat, mkdtemp, realpath, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve, sep } from "node:path";
import { git } from "../workspace/git.js";
import { UsageError } from "./usage-error.js";

/** What `patchgate run` clones: the source as given, and the commit to start from when not its HEAD. */
export interface CheckedRepo {
  source: string;
  ref?: string;
  /** What the user should know about what is cloned: a subdirectory's repository, a snapshot of uncommitted changes. */
  note?: string;
}

const looksRemote = (repo: string) => /^[a-z][a-z0-9+.-]*:\/\//i.test(repo) || /^[^/\s]+@[^/\s]+:/.test(repo);

/**
 * `--repo` is checked before a session exists, so a typo never leaves a session without an end.
 * A local repository with changes not committed is refused: the clone would silently leave them out.
 * With `includeUncommitted` they are committed on top of HEAD as a snapshot (in a throwaway index;
 * the user's index, work tree and refs are untouched) and the session starts from that commit.
 */
export async function checkRepo(repo: string, includeUncommitted: boolean): Promise<CheckedRepo> {
  if (looksRemote(repo)) return { source: repo };
  const dir = resolve(repo);
  const st = await stat(dir).catch(() => null);
  if (st === null) throw new UsageError(`--repo ${repo}: no such directory`);
  if (!st.isDirectory()) throw new UsageError(`--repo ${repo}: not a directory`);
  const top = await topLevel(repo, dir);
  const moved = top === (await realpath(dir)) ? undefined : `--repo ${repo} is inside the repository ${top}: the session works on all of it`;
  // One status answers the other questions: a commit yet (`branch.oid`), changes not committed.
  const status = await git(["status", "--porcelain=v2", "--branch", "--untracked-files=all"], { cwd: top });
  if (status.exitCode !== 0) throw new UsageError(`--repo ${repo}: git status failed: ${status.stderr.trim()}`);
  const head = /^# branch\.oid ([0-9a-f]{40,64})$/m.exec(status.stdout)?.[1];
  if (head === undefined) throw new UsageError(`--repo ${repo}: has no commit yet; commit what the session should start from`);
  const entries = status.stdout.split("\n").filter((l) => l !== "" && !l.startsWith("# "));
  if (entries.length === 0) return { source: top, ...(moved && { note: moved }) };
  const changed = entries.length;
  if (!includeUncommitted) {
    throw new UsageError(
      `--repo ${repo} has ${changed} uncommitted change(s), which a session would not see. Commit or stash them, or pass --include-uncommitted to start from a snapshot of them.`,
    );
  }
  const note = [moved, `started from a snapshot of ${changed} uncommitted change(s) on top of HEAD`].filter(Boolean).join("\n");
  return { source: top, ref: await snapshotCommit(top, head), note };
}

/**
 * A clone is made of a repository's top level, never of a folder inside it (git would refuse with a
 * message about a repository that "does not exist"), so a subdirectory stands for its repository.
 * The top level is the nearest folder holding a `.git`, found without starting a process (the status
 * that follows is the one git call this check makes). A `.git` directory, or a folder inside one,
 * has no work tree: refused here, in one line.
 */
async function topLevel(repo: string, dir: string): Promise<string> {
  const real = await realpath(dir);
  if (real.split(sep).includes(".git")) throw new UsageError(`--repo ${repo}: not inside a work tree (give the repository's folder, not its .git)`);
  for (let at = real; ; at = dirname(at)) {
    if (await lstat(join(at, ".git")).catch(() => null)) return at;
    if (dirname(at) === at) throw new UsageError(`--repo ${repo}: not a git repository (run \`git init\` and commit first)`);
  }
}

async function snapshotCommit(dir: string, head: string): Promise<string> {
  const tmp = await mkdtemp(join(tmpdir(), "pg-snapshot-"));
  const env = {
    GIT_INDEX_FILE: join(tmp, "index"),
    GIT_AUTHOR_NAME: "patchgate",
    GIT_AUTHOR_EMAIL: "patchgate@localhost",
    GIT_COMMITTER_NAME: "patchgate",
    GIT_COMMITTER_EMAIL: "patchgate@localhost",
  };
  try {
    for (const args of [
      ["read-tree", head],
      ["add", "--all"],
    ]) {
      const r = await git(args, { cwd: dir, env });
      if (r.exitCode !== 0) throw new UsageError(`could not snapshot the uncommitted changes: ${r.stderr.trim()}`);
    }
    const tree = await git(["write-tree"], { cwd: dir, env });
    const commit = await git(["commit-tree", tree.stdout.trim(), "-p", head, "-m", "patchgate: uncommitted changes at session start"], { cwd: dir, env });
    if (tree.exitCode !== 0 || commit.exitCode !== 0)
      throw new UsageError(`could not snapshot the uncommitted changes: ${(tree.stderr + commit.stderr).trim()}`);
    return commit.stdout.trim();
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

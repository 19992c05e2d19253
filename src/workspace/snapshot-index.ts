import { copyFile, rm, stat, utimes } from "node:fs/promises";
import { join } from "node:path";
import { withDeadline } from "./deadline.js";
import { git, gitOk, GIT_LOCAL_TIMEOUT_MS } from "./git.js";
import { pathKind, stagePaths } from "./publish-index.js";
import { snapshotState, type SnapshotState } from "./session-snapshot.js";
import { findSpecialFiles, type SpecialEntry } from "./tree-walk.js";
import { WorkspaceError } from "./workspace-error.js";

/**
 * Runs `fn` with an index that holds the whole working tree (tracked and untracked files, ignored
 * files excluded unless listed in `alsoPaths`) on top of `base`: the snapshot a command's changes are
 * compared with and rolled back to. Nothing is ever staged in the real index. (What is published is
 * not this tree but the ledger's: see publish-index.ts.)
 *
 * Each snapshot starts from a seed, made once per (clone, base): the base tree over a copy of the
 * real index (`read-tree -m` keeps its stat cache for unchanged files; `-i` because this index is not
 * the working tree's), so the result depends only on (base, working tree), and `add -A` re-reads only
 * what changed since the clone instead of every file. Copying the seed costs no git process.
 */
export async function withSnapshotIndex<T>(
  root: string,
  base: string,
  fn: (env: { GIT_INDEX_FILE: string }) => Promise<T>,
  signal?: AbortSignal,
  /** Paths taken even when ignored (files the session wrote on purpose). */
  alsoPaths: readonly string[] = [],
): Promise<T> {
  const state = snapshotState(root, base);
  return state.serial(async () => {
    const env = { GIT_INDEX_FILE: join(state.dir, "snapshot-index") };
    try {
      // Once seeded, the copy needs nothing from the walk: both at once (no git runs before the walk is done).
      const copied = state.seeded ? copyKeepingMtime(state.seedIndex, env.GIT_INDEX_FILE) : null;
      // Settled both before going on, so no copy is still writing when the next operation makes its own.
      const [walked, copy] = await Promise.allSettled([specialFilesGitSees(root, signal), copied]);
      if (walked.status === "rejected") throw walked.reason;
      if (copy.status === "rejected") throw copy.reason;
      const special = walked.value;
      if (!copied) {
        await seed(root, base, state.seedIndex, signal);
        state.seeded = true;
        await copyKeepingMtime(state.seedIndex, env.GIT_INDEX_FILE);
      }
      // git skips an untracked special file, but refuses to add one that replaced a tracked file.
      const excluded = special.map((s) => `:(exclude,literal)${s.rel}`);
      await gitOk(["add", "-A", "--", ".", ...excluded], { cwd: root, env, signal });
      await stagePaths(root, env, await notCoveredByAdd(root, state, alsoPaths), signal);
      return await fn(env);
    } finally {
      await rm(env.GIT_INDEX_FILE, { force: true });
    }
  });
}

/**
 * The paths `add -A` has already staged as update-index would: one the base has (tracked, so taken
 * even when ignored) that is a file now, and one that is absent (its entry, if any, is removed either
 * way). Anything else — a new file that may be ignored, a FIFO the walk excluded — is staged explicitly.
 */
async function notCoveredByAdd(root: string, state: SnapshotState, paths: readonly string[]): Promise<string[]> {
  const kinds = await Promise.all(paths.map(async (p) => [p, await pathKind(root, p)] as const));
  return kinds.filter(([p, kind]) => !(kind === "absent" || (kind === "file" && state.inBase.get(p) === true))).map(([p]) => p);
}

// git opens every .gitignore it meets and the .gitattributes of every path it hashes or diffs, with
// a plain blocking open: one that is a FIFO stalls it for ever. They are looked for first, without
// opening anything, so the snapshot fails with their names instead of hanging.
const GIT_READS = new Set([".gitignore", ".gitattributes"]);

/** The special files (not symlinks to them: git stores a symlink as its text) git would meet. */
async function specialFilesGitSees(root: string, signal: AbortSignal | undefined): Promise<SpecialEntry[]> {
  const found = await withDeadline("looking for special files", GIT_LOCAL_TIMEOUT_MS, signal, (s) => findSpecialFiles(root, s));
  const own = found.filter((f) => !f.viaSymlink);
  const blocking = own.filter((f) => GIT_READS.has(f.rel.slice(f.rel.lastIndexOf("/") + 1)));
  if (blocking.length > 0) {
    const names = blocking.map((f) => `${f.rel} (a ${f.kind})`).join(", ");
    throw new WorkspaceError(
      "special_file",
      `${names}: git reads every .gitignore and .gitattributes as a file and would wait for ever on this one; remove it`,
    );
  }
  return own;
}

async function seed(root: string, base: string, target: string, signal: AbortSignal | undefined): Promise<void> {
  // Refresh the real index's stat cache first (stat data only, as `git status` does; nothing is staged).
  // Files written in the same second as the index stay "racy" and are re-hashed on every read until
  // some later write of the index; without this, a fresh clone is never healed and every snapshot
  // re-reads the whole checkout. Best effort: a held index.lock only costs speed.
  await git(["update-index", "-q", "--refresh"], { cwd: root, signal });
  const real = join(root, ".git", "index");
  // No index yet (e.g. a --no-checkout clone): read-tree builds one from scratch.
  if (await stat(real).catch(() => null)) await copyKeepingMtime(real, target);
  else await rm(target, { force: true });
  await gitOk(["read-tree", "-m", "-i", `${base}^{tree}`], { cwd: root, env: { GIT_INDEX_FILE: target }, signal });
}

/**
 * Keeps the index's own mtime: git compares it with file mtimes to spot "racily clean" entries, and a
 * newer copy would make a same-size edit made just after the index was written look clean.
 */
async function copyKeepingMtime(from: string, to: string): Promise<void> {
  const st = await stat(from);
  await copyFile(from, to);
  await utimes(to, st.atime, st.mtime);
}

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
      // Once seeded, the copy needs nothing from the walk: both at once. A seed or its deferred refresh
      // runs git, which must wait for the walk.
      const refresh = state.seeded && state.seedRefreshAt !== null && Date.now() >= state.seedRefreshAt;
      const copied = state.seeded && !refresh ? copyKeepingMtime(state.seedIndex, env.GIT_INDEX_FILE) : null;
      // Settled both before going on, so no copy is still writing when the next operation makes its own.
      const [walked, copy] = await Promise.allSettled([specialFilesGitSees(root, signal), copied]);
      if (walked.status === "rejected") throw walked.reason;
      if (copy.status === "rejected") throw copy.reason;
      const special = walked.value;
      if (!copied) {
        if (refresh) await refreshSeed(root, state, signal);
        else await seed(root, base, state, signal);
        await copyKeepingMtime(state.seedIndex, env.GIT_INDEX_FILE);
      }
      // git skips an untracked special file, but refuses to add one that replaced a tracked file.
      const excluded = special.map((s) => `:(exclude,literal)${s.rel}`);
      await gitOk(["add", "-A", "--", ".", ...excluded], { cwd: root, env, signal });
      await stagePaths(root, env, notCoveredByAdd(root, state, alsoPaths), signal);
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
function notCoveredByAdd(root: string, state: SnapshotState, paths: readonly string[]): string[] {
  const kinds = paths.map((p) => [p, pathKind(root, p)] as const);
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

async function seed(root: string, base: string, state: SnapshotState, signal: AbortSignal | undefined): Promise<void> {
  const real = join(root, ".git", "index");
  const target = state.seedIndex;
  // No index yet (e.g. a --no-checkout clone): read-tree builds one from scratch.
  const st = await stat(real).catch(() => null);
  if (st) await copyKeepingMtime(real, target);
  else await rm(target, { force: true });
  await gitOk(["read-tree", "-m", "-i", `${base}^{tree}`], { cwd: root, env: { GIT_INDEX_FILE: target }, signal });
  state.seeded = true;
  // The real index's entries for files written in its own second are racy: their stat data is kept,
  // but git reads those files again until an index is written in a later second after checking them.
  // A refresh now, in that second (a snapshot right after the clone), would leave them racy for the
  // session; it waits for the second to be over. Until then the seed is still of that second (or the
  // refresh runs now), so the racy entries are read again, never trusted unchecked.
  const seedSecond = Math.floor((await stat(target)).mtimeMs / 1000);
  const realSecond = st ? Math.floor(st.mtimeMs / 1000) : -1;
  state.seedRefreshAt = (realSecond + 1) * 1000 + RACY_MARGIN_MS;
  if (seedSecond > realSecond || Date.now() >= state.seedRefreshAt) await refreshSeed(root, state, signal);
}

/** File stamps come from a coarse clock that can lag the wall clock by a few ms. */
const RACY_MARGIN_MS = 50;

/**
 * Refreshes the seed's stat cache (stat data only, as `git status` does; nothing is staged), so that
 * `add -A` re-reads only what changed since instead of every file: a fresh clone's files are written
 * in the same few seconds as the index, and git trusts none written in the index's second. Best effort.
 */
async function refreshSeed(root: string, state: SnapshotState, signal: AbortSignal | undefined): Promise<void> {
  state.seedRefreshAt = null;
  await git(["update-index", "-q", "--refresh"], { cwd: root, env: { GIT_INDEX_FILE: state.seedIndex }, signal });
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

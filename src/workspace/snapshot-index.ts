import { copyFile, mkdtemp, rm, stat, utimes } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { withDeadline } from "./deadline.js";
import { git, gitOk, GIT_LOCAL_TIMEOUT_MS } from "./git.js";
import { stagePaths } from "./publish-index.js";
import { findSpecialFiles, type SpecialEntry } from "./tree-walk.js";
import { WorkspaceError } from "./workspace-error.js";

/**
 * Runs `fn` with a throwaway index that holds the whole working tree (tracked and untracked files,
 * ignored files excluded unless listed in `alsoPaths`) on top of `base`: the snapshot a command's
 * changes are compared with and rolled back to. Nothing is ever staged in the real index. (What is
 * published is not this tree but the ledger's: see publish-index.ts.)
 *
 * The index is seeded from the base tree, so the result depends only on (base, working tree), not on
 * what the real index holds. `read-tree -m` over a copy of the real index keeps its stat cache for
 * unchanged files, so `add -A` re-reads only what changed instead of every file in the repository;
 * `-i` because this index is not the working tree's: git must not refuse over uncommitted edits.
 */
export async function withSnapshotIndex<T>(
  root: string,
  base: string,
  fn: (env: { GIT_INDEX_FILE: string }) => Promise<T>,
  signal?: AbortSignal,
  /** Paths taken even when ignored (files the session wrote on purpose). */
  alsoPaths: readonly string[] = [],
): Promise<T> {
  const special = await specialFilesGitSees(root, signal);
  const dir = await mkdtemp(join(tmpdir(), "patchgate-index-"));
  const env = { GIT_INDEX_FILE: join(dir, "index") };
  try {
    await seedFromRealIndex(root, env.GIT_INDEX_FILE, signal);
    await gitOk(["read-tree", "-m", "-i", `${base}^{tree}`], { cwd: root, env, signal });
    // git skips an untracked special file, but refuses to add one that replaced a tracked file.
    const excluded = special.map((s) => `:(exclude,literal)${s.rel}`);
    await gitOk(["add", "-A", "--", ".", ...excluded], { cwd: root, env, signal });
    await stagePaths(root, env, alsoPaths, signal);
    return await fn(env);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
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
    throw new WorkspaceError("special_file", `${names}: git reads every .gitignore and .gitattributes as a file and would wait for ever on this one; remove it`);
  }
  return own;
}

async function seedFromRealIndex(root: string, target: string, signal: AbortSignal | undefined): Promise<void> {
  // Refresh the real index's stat cache first (stat data only, as `git status` does; nothing is staged).
  // Files written in the same second as the index stay "racy" and are re-hashed on every read until
  // some later write of the index; without this, a fresh clone is never healed and every snapshot
  // re-reads the whole checkout. Best effort: a held index.lock only costs speed.
  await git(["update-index", "-q", "--refresh"], { cwd: root, signal });
  const real = join(root, ".git", "index");
  const st = await stat(real).catch(() => null);
  if (!st) return; // no index yet (e.g. a --no-checkout clone): read-tree builds one from scratch
  await copyFile(real, target);
  // Keep the index's own mtime: git compares it with file mtimes to spot "racily clean" entries,
  // and a newer copy would make a same-size edit made just after the real index was written look clean.
  await utimes(target, st.atime, st.mtime);
}

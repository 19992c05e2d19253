import type { DiffInfo } from "../session/types.js";
import { LISTING_FLAGS, parseListing, type DiffListing } from "./diff.js";
import { treeOfCommit } from "./commit-trees.js";
import { gitOk } from "./git.js";
import { pathsFingerprint } from "./path-fingerprint.js";
import { stagePaths } from "./publish-index.js";
import { snapshotState, type SnapshotState } from "./session-snapshot.js";
import type { ChangedPath } from "./types.js";

/**
 * The published tree (base + the ledger's `paths`, publish-index.ts) of a session, kept in one
 * persistent index per (clone, base) and updated only where a path changed. Whether a path changed
 * is decided by reading its bytes (path-fingerprint.ts), never by trusting a cache: the same bytes
 * give the same tree without starting git, and any other bytes are staged again. So test gate,
 * finish, the publish guard and the commit all see the tree as it is now, at the cost of reading
 * the few published files, and the same tree is hashed by git once.
 */
type Fingerprint = Awaited<ReturnType<typeof pathsFingerprint>>;

function keyOf(fp: Fingerprint): string {
  return JSON.stringify([fp.context, [...fp.byPath]]);
}

const staged = (print: string | undefined) => print !== undefined && (print.startsWith("file:") || print.startsWith("link:"));

/**
 * Brings the publish index to `fp`: only changed paths, unless a path left or was deleted (then from
 * the base). False when a file changed while git read it: the index then holds something else, and
 * nothing derived from it may be remembered under `fp`.
 */
async function stageTo(state: SnapshotState, root: string, base: string, paths: readonly string[], fp: Fingerprint, signal?: AbortSignal): Promise<boolean> {
  const env = { GIT_INDEX_FILE: state.publishIndex };
  const prev = state.publish;
  state.publish = null; // until the index is known to hold `fp`
  const changed = [...fp.byPath].filter(([p, print]) => prev?.byPath.get(p) !== print).map(([p]) => p);
  // A deletion, or a file that replaced a directory, is only exact when built from the base again.
  const incremental =
    prev !== null &&
    prev.context === fp.context &&
    [...prev.byPath.keys()].every((p) => fp.byPath.has(p)) &&
    changed.every((p) => staged(fp.byPath.get(p)) && (prev.byPath.get(p) === undefined || staged(prev.byPath.get(p))));
  // From the base tree itself, never from a copy of the clone's index: the sandbox can write .git/index
  // (flags such as skip-worktree would make git ignore a file's bytes).
  if (!incremental) await gitOk(["read-tree", `${base}^{tree}`], { cwd: root, env, signal });
  await stagePaths(root, env, incremental ? changed : [...fp.byPath.keys()], signal);
  const exact = keyOf(await pathsFingerprint(root, paths)) === keyOf(fp);
  if (exact) state.publish = fp;
  return exact;
}

async function ensureStaged(
  state: SnapshotState,
  root: string,
  base: string,
  paths: readonly string[],
  fp: Fingerprint,
  signal?: AbortSignal,
): Promise<boolean> {
  if (state.publish !== null && keyOf(state.publish) === keyOf(fp)) return true;
  return stageTo(state, root, base, paths, fp, signal);
}

async function current(
  state: SnapshotState,
  root: string,
  paths: readonly string[],
  signal: AbortSignal | undefined,
  base: string,
): Promise<{ tree: string; fp: Fingerprint }> {
  const fp = await pathsFingerprint(root, paths);
  const key = keyOf(fp);
  const hit = state.trees.get(key);
  if (hit !== undefined) return { tree: hit, fp };
  if (fp.byPath.size === 0) return { tree: await treeOfCommit(root, base, signal), fp };
  const exact = await ensureStaged(state, root, base, paths, fp, signal);
  const tree = (await gitOk(["write-tree"], { cwd: root, env: { GIT_INDEX_FILE: state.publishIndex }, signal })).trim();
  if (exact) state.trees.set(key, tree);
  return { tree, fp };
}

export function publishedTree(root: string, base: string, paths: readonly string[], signal?: AbortSignal): Promise<string> {
  const state = snapshotState(root, base);
  return state.serial(async () => (await current(state, root, paths, signal, base)).tree);
}

/**
 * Diff, stat and changed paths of the published tree against the base: one git process per new state.
 * The diff reads attributes from the working tree and, where one is missing, from the index: the
 * publish index, as it always did.
 */
function listing(root: string, base: string, paths: readonly string[], signal?: AbortSignal): Promise<DiffListing> {
  const state = snapshotState(root, base);
  return state.serial(async () => {
    // Keyed by what the tree is made of, so a diff needs no tree of its own (the index is enough).
    const fp = await pathsFingerprint(root, paths);
    const key = keyOf(fp);
    const hit = state.listings.get(key);
    if (hit !== undefined) return hit;
    if (fp.byPath.size === 0) return { diff: { patch: "", stat: "", filesChanged: 0, insertions: 0, deletions: 0 }, changes: [], inBase: new Map() };
    const exact = await ensureStaged(state, root, base, paths, fp, signal);
    const out = await gitOk(["diff", "--cached", ...LISTING_FLAGS, base, "--"], { cwd: root, env: { GIT_INDEX_FILE: state.publishIndex }, signal });
    const result = parseListing(out);
    // Whether the base has a path never changes: the snapshot index uses it (snapshot-index.ts).
    for (const [p, has] of result.inBase) state.inBase.set(p, has);
    // A file the diff does not list is the base's (only true when the index holds `fp`).
    if (exact) for (const [p, print] of fp.byPath) if (!result.inBase.has(p) && staged(print)) state.inBase.set(p, true);
    if (exact) state.listings.set(key, result);
    return result;
  });
}

export async function publishedDiff(root: string, base: string, paths: readonly string[], signal?: AbortSignal): Promise<DiffInfo> {
  return (await listing(root, base, paths, signal)).diff;
}

/** Every path the published tree adds, changes or deletes against the base, with its new mode. */
export async function publishedChanges(root: string, base: string, paths: readonly string[], signal?: AbortSignal): Promise<ChangedPath[]> {
  return (await listing(root, base, paths, signal)).changes;
}

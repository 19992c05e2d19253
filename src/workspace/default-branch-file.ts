import { git } from "./git.js";

/**
 * A file as the default branch has it, read from the clone's object store: `origin/HEAD` is the
 * remote's default branch as `git clone` recorded it, whichever branch or commit the session checked
 * out (a PR head carries its own copy, which is never what this reads). A blob larger than
 * `maxBytes` is not read at all (`text` null); `bytes` is its whole size.
 */
export interface DefaultBranchFile {
  commit: string;
  bytes: number;
  text: string | null;
}

/** The default branch's head in the clone, or null when the clone recorded none. */
export async function defaultBranchHead(root: string, signal?: AbortSignal): Promise<string | null> {
  const r = await git(["rev-parse", "--verify", "--quiet", "refs/remotes/origin/HEAD^{commit}"], { cwd: root, signal });
  return r.exitCode === 0 ? r.stdout.trim() : null;
}

/**
 * The first of `paths` (in their order) that is a regular file on the default branch, looked up with
 * one `ls-tree` for all of them; null when none is.
 */
export async function readFirstDefaultBranchFile(
  root: string,
  commit: string,
  paths: readonly string[],
  maxBytes: number,
  signal?: AbortSignal,
): Promise<{ path: string; file: DefaultBranchFile } | null> {
  // `--` never applies to `<rev>:<path>`; a path starting with "-" is refused by the caller's check.
  const listing = await git(["ls-tree", "-z", "--long", commit, "--", ...paths], { cwd: root, signal });
  if (listing.exitCode !== 0) return null;
  const blobs = new Map<string, { sha: string; bytes: number }>();
  for (const entry of listing.stdout.split("\0")) {
    const fields = /^(\d+) (\w+) ([0-9a-f]+) +(\d+|-)\t([^]*)$/.exec(entry);
    if (fields && fields[2] === "blob" && ["100644", "100755"].includes(fields[1])) blobs.set(fields[5], { sha: fields[3], bytes: Number(fields[4]) });
  }
  const path = paths.find((p) => blobs.has(p));
  if (path === undefined) return null;
  const { sha, bytes } = blobs.get(path)!;
  if (bytes > maxBytes) return { path, file: { commit, bytes, text: null } };
  const blob = await git(["cat-file", "blob", sha], { cwd: root, signal });
  return blob.exitCode === 0 ? { path, file: { commit, bytes, text: blob.stdout } } : null;
}

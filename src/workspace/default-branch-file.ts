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

/** null when the default branch has no regular file (or symlink) at `path`. */
export async function readDefaultBranchFile(root: string, commit: string, path: string, maxBytes: number, signal?: AbortSignal): Promise<DefaultBranchFile | null> {
  // `--` never applies to `<rev>:<path>`; a path starting with "-" is refused by the caller's check.
  const entry = await git(["ls-tree", "-z", "--long", commit, "--", path], { cwd: root, signal });
  const fields = /^(\d+) (\w+) ([0-9a-f]+) +(\d+|-)\t/.exec(entry.stdout);
  if (entry.exitCode !== 0 || !fields || fields[2] !== "blob" || !["100644", "100755"].includes(fields[1])) return null;
  const bytes = Number(fields[4]);
  if (bytes > maxBytes) return { commit, bytes, text: null };
  const blob = await git(["cat-file", "blob", fields[3]], { cwd: root, signal });
  return blob.exitCode === 0 ? { commit, bytes, text: blob.stdout } : null;
}

import { git, gitOk } from "./git.js";

/**
 * What a local commit is made of, as the Git Data API needs it to create the same commit on GitHub:
 * its parent, its tree, its message, and each entry its tree changes against the parent's (a blob
 * to upload, a submodule pointer, or a deletion). Read with plumbing; nothing in the clone changes.
 */
interface TreeChange {
  path: string;
  mode: string;
  /** The new blob (or submodule commit); null: the path is deleted. */
  sha: string | null;
}

export interface CommitParts {
  parent: string;
  tree: string;
  parentTree: string;
  message: string;
  changes: TreeChange[];
}

const RAW = /^:(\d+) (\d+) ([0-9a-f]+) ([0-9a-f]+) ([A-Z])/;

export async function commitParts(root: string, commit: string, signal?: AbortSignal): Promise<CommitParts> {
  const parents = (await gitOk(["rev-list", "--parents", "-n", "1", commit], { cwd: root, signal })).trim().split(" ").slice(1);
  if (parents.length !== 1) throw new Error(`commit ${commit} has ${parents.length} parents; Patchgate's commits have one`);
  const [parent] = parents;
  const tree = (await gitOk(["rev-parse", `${commit}^{tree}`], { cwd: root, signal })).trim();
  const parentTree = (await gitOk(["rev-parse", `${parent}^{tree}`], { cwd: root, signal })).trim();
  const raw = await gitOk(["cat-file", "commit", commit], { cwd: root, signal });
  const message = raw.slice(raw.indexOf("\n\n") + 2);
  // -z: paths exactly as they are; no renames: a rename is a deletion and an addition, as in a tree.
  const fields = (await gitOk(["diff-tree", "-r", "-z", "--no-renames", "--no-commit-id", parent, commit], { cwd: root, signal })).split("\0");
  const changes: TreeChange[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const m = RAW.exec(fields[i]);
    if (!m) continue;
    changes.push(m[5] === "D" ? { path: fields[i + 1], mode: m[1], sha: null } : { path: fields[i + 1], mode: m[2], sha: m[4] });
  }
  return { parent, tree, parentTree, message, changes };
}

/** A blob's bytes, base64 (the Git Data API's encoding for any content). */
export async function blobBase64(root: string, sha: string, signal?: AbortSignal): Promise<string> {
  const r = await git(["cat-file", "blob", sha], { cwd: root, signal });
  if (r.exitCode !== 0 || !r.stdoutBytes) throw new Error(`no blob ${sha} in the clone`);
  return r.stdoutBytes.toString("base64");
}

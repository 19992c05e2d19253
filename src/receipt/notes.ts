import { git, gitOk } from "../workspace/git.js";
import type { CommitChange } from "./from-session.js";

/**
 * Receipts live beside the commits they describe, as git notes under their own ref: a note never
 * changes the commit's id, travels with `git push/fetch <remote> refs/notes/patchgate`, and a plain
 * clone that fetched the ref holds everything `patchgate verify` needs.
 */
export const RECEIPT_NOTES_REF = "refs/notes/patchgate";

const NOTE_AUTHOR = {
  GIT_AUTHOR_NAME: "Patchgate",
  GIT_AUTHOR_EMAIL: "patchgate@users.noreply.local",
  GIT_COMMITTER_NAME: "Patchgate",
  GIT_COMMITTER_EMAIL: "patchgate@users.noreply.local",
};

/** Writes (or replaces) the receipt note of `commit`. `gitDir`: a working tree or a bare repository. */
export async function writeReceiptNote(gitDir: string, commit: string, envelopeJson: string): Promise<void> {
  await gitOk(["notes", `--ref=${RECEIPT_NOTES_REF}`, "add", "--force", "--file=-", commit], { cwd: gitDir, env: NOTE_AUTHOR, input: envelopeJson });
}

/** The receipt note of `commit`, or null when it has none. */
export async function readReceiptNote(gitDir: string, commit: string): Promise<string | null> {
  const r = await git(["notes", `--ref=${RECEIPT_NOTES_REF}`, "show", commit], { cwd: gitDir });
  return r.exitCode === 0 ? r.stdout : null;
}

export interface CommitFacts {
  commit: string;
  tree: string;
  /** The first parent; null for a root commit. */
  parent: string | null;
  author: { name: string; email: string };
  committer: { name: string; email: string };
  /** What the commit changes against its first parent (against nothing for a root commit). */
  changes: CommitChange[];
}

const NUL = "\u0000";

/**
 * The facts a receipt is checked against, read from git (never from the receipt), in one call: the
 * header fields, then the changes against the first parent (`--always`: a commit changing nothing
 * still prints its header).
 */
export async function commitFacts(gitDir: string, rev: string): Promise<CommitFacts> {
  const format = "--format=%H%x00%T%x00%P%x00%an%x00%ae%x00%cn%x00%ce%x00";
  const out = await gitOk(["diff-tree", "-r", "-z", "--no-renames", "--root", "--always", format, "--end-of-options", rev], { cwd: gitDir });
  const fields = out.split(NUL);
  const [commit, tree, parents, an, ae, cn, ce] = fields;
  const rest = fields.slice(7).join(NUL);
  const start = rest.indexOf(":");
  const parent = parents.split(" ").filter(Boolean)[0] ?? null;
  return {
    commit,
    tree,
    parent,
    author: { name: an, email: ae },
    committer: { name: cn, email: ce },
    changes: start < 0 ? [] : parseDiffTree(rest.slice(start)),
  };
}

/** `:<old mode> <new mode> <old id> <new id> <status>\0<path>\0` records; a deletion's new id is all zeros. */
function parseDiffTree(out: string): CommitChange[] {
  const parts = out.split(NUL);
  const changes: CommitChange[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const meta = parts[i].trim();
    if (!meta.startsWith(":")) break;
    const fields = meta.slice(1).split(" ");
    const status = fields[4];
    changes.push({ path: parts[i + 1], blob: status === "D" ? null : fields[3] });
  }
  return changes;
}

/** The commits of `range` (`a..b`, or one commit), oldest first. */
export async function commitsOf(gitDir: string, range: string): Promise<string[]> {
  const args = range.includes("..") ? ["rev-list", "--reverse", range, "--"] : ["rev-parse", "--verify", "--end-of-options", `${range}^{commit}`];
  return (await gitOk(args, { cwd: gitDir })).split("\n").filter(Boolean);
}

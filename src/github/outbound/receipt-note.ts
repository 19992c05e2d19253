import type { Repo } from "../inbound/intent.js";
import type { Octokit } from "../octokit.js";

/**
 * A commit's receipt as a git note on GitHub, through the Git Data API: the envelope as a blob, a tree
 * on the notes ref's tree with the commit's sha as the path of that blob, a notes commit on the ref's
 * head, the ref moved by fast-forward only (created when there is none). Someone else's notes update
 * in between makes GitHub refuse the move (422); the ref is read again and the note added on top, a
 * few times. A note already there with the same envelope changes nothing.
 */
export const NOTES_REF = "refs/notes/patchgate";
const ATTEMPTS = 5;

const status = (e: unknown): number => (e as { status?: number }).status ?? 0;

async function notesHead(octokit: Octokit, where: { owner: string; repo: string }): Promise<{ commit: string; tree: string } | null> {
  try {
    const { data: ref } = await octokit.rest.git.getRef({ ...where, ref: NOTES_REF.slice("refs/".length) });
    const { data: commit } = await octokit.rest.git.getCommit({ ...where, commit_sha: ref.object.sha });
    return { commit: commit.sha, tree: commit.tree.sha };
  } catch (e) {
    if (status(e) === 404) return null;
    throw e;
  }
}

/** Returns the notes commit the ref now points at ("unchanged": the note was there already). */
export async function pushReceiptNote(
  octokit: Octokit,
  repo: Pick<Repo, "owner" | "repo">,
  commit: string,
  envelopeJson: string,
): Promise<string | "unchanged"> {
  const where = { owner: repo.owner, repo: repo.repo };
  const { data: blob } = await octokit.rest.git.createBlob({ ...where, content: Buffer.from(envelopeJson).toString("base64"), encoding: "base64" });
  for (let attempt = 1; ; attempt++) {
    const head = await notesHead(octokit, where);
    const entry = { path: commit, mode: "100644" as const, type: "blob" as const, sha: blob.sha };
    const { data: tree } = await octokit.rest.git.createTree({ ...where, ...(head ? { base_tree: head.tree } : {}), tree: [entry] });
    if (head && tree.sha === head.tree) return "unchanged";
    const { data: notes } = await octokit.rest.git.createCommit({
      ...where,
      message: `Receipt for ${commit}`,
      tree: tree.sha,
      parents: head ? [head.commit] : [],
    });
    try {
      if (head) await octokit.rest.git.updateRef({ ...where, ref: NOTES_REF.slice("refs/".length), sha: notes.sha, force: false });
      else await octokit.rest.git.createRef({ ...where, ref: NOTES_REF, sha: notes.sha });
      return notes.sha;
    } catch (e) {
      // 422: the ref was made or moved meanwhile; the note goes on top of what is there now.
      if (status(e) !== 422 || attempt >= ATTEMPTS) throw e;
    }
  }
}

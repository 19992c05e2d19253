import type { Octokit } from "../octokit.js";
import { MARKER_PREFIX, threadComments, type CommentAuthor, type CommentTarget } from "./markers.js";

/**
 * GitHub has no idempotency key for comments. A POST in flight when its process was killed can land
 * after the next process searched the thread for the comment's marker and, not finding it, posted
 * the comment again: the thread then holds two copies. When a session ends, each thread it posted in
 * keeps one copy per marker of the session — the one whose id is remembered, else the oldest — and
 * the others are deleted. Only comments Patchgate authored are touched (a marker can be copied).
 * Returns how many were deleted.
 */
export async function removeStrayCopies(
  octokit: Octokit,
  t: CommentTarget,
  sessionId: string,
  remembered: (effect: string) => Promise<number | null>,
  isOurs: (author: CommentAuthor) => Promise<boolean>,
): Promise<number> {
  const prefix = `${MARKER_PREFIX}${sessionId}:`;
  const copies = new Map<string, number[]>();
  for await (const c of threadComments(octokit, t)) {
    const effect = effectOf(c.body ?? "", prefix);
    if (effect === null || !(await isOurs(c.user))) continue;
    copies.set(effect, [...(copies.get(effect) ?? []), c.id]);
  }
  let deleted = 0;
  for (const [effect, ids] of copies) {
    if (ids.length < 2) continue;
    const known = await remembered(effect);
    const keep = known !== null && ids.includes(known) ? known : Math.min(...ids);
    for (const id of ids.filter((i) => i !== keep)) {
      await octokit.rest.issues.deleteComment({ owner: t.owner, repo: t.repo, comment_id: id }).catch((e: unknown) => {
        if ((e as { status?: number }).status !== 404) throw e; // gone already: what was wanted
      });
      deleted += 1;
    }
  }
  return deleted;
}

/** The effect named by the session's marker in a comment body, or null when the body has none. */
function effectOf(body: string, prefix: string): string | null {
  const at = body.lastIndexOf(prefix);
  if (at < 0) return null;
  const end = body.indexOf(" -->", at + prefix.length);
  return end < 0 ? null : body.slice(at + prefix.length, end);
}

import type { Octokit } from "./octokit.js";

/**
 * Every comment Patchgate posts carries a hidden marker `<!-- patchgate:<session>:<effect> -->`.
 * On a resume or redelivery the comment is found by its marker and updated instead of duplicated,
 * and comments carrying a marker are never read as commands.
 */
export const MARKER_PREFIX = "<!-- patchgate:";

export function marker(sessionId: string, effect: string): string {
  return `${MARKER_PREFIX}${sessionId}:${effect} -->`;
}

export interface CommentTarget {
  owner: string;
  repo: string;
  number: number;
}

/**
 * Posts `body` once per (session, effect). The comment id is remembered through `remember`; when it
 * is unknown (first post, or a crash between posting and remembering) the thread is searched for the
 * marker, so a resumed session adopts the comment it already made.
 */
export async function upsertComment(
  octokit: Octokit,
  t: CommentTarget,
  m: string,
  body: string,
  memo: { get(): Promise<string | null>; set(id: string): Promise<void> },
): Promise<{ id: number; url: string; created: boolean }> {
  const text = `${body}\n\n${m}`;
  const known = await memo.get();
  if (known) {
    const { data } = await octokit.rest.issues.updateComment({ owner: t.owner, repo: t.repo, comment_id: Number(known), body: text });
    return { id: data.id, url: data.html_url, created: false };
  }
  const existing = await findMarked(octokit, t, m);
  if (existing) {
    await memo.set(String(existing.id));
    if (existing.body !== text) await octokit.rest.issues.updateComment({ owner: t.owner, repo: t.repo, comment_id: existing.id, body: text });
    return { id: existing.id, url: existing.html_url, created: false };
  }
  const { data } = await octokit.rest.issues.createComment({ owner: t.owner, repo: t.repo, issue_number: t.number, body: text });
  await memo.set(String(data.id));
  return { id: data.id, url: data.html_url, created: true };
}

/** Pages through the thread (bounded: 20 pages of 100) looking for the marker. */
async function findMarked(octokit: Octokit, t: CommentTarget, m: string): Promise<{ id: number; html_url: string; body?: string } | null> {
  for (let page = 1; page <= 20; page++) {
    const { data } = await octokit.rest.issues.listComments({ owner: t.owner, repo: t.repo, issue_number: t.number, per_page: 100, page });
    const hit = data.find((c) => c.body?.includes(m));
    if (hit) return hit;
    if (data.length < 100) return null;
  }
  return null;
}

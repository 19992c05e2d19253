import type { Octokit } from "../octokit.js";
import type { Outbound } from "./outbound.js";

/**
 * Every comment Patchgate posts carries a hidden marker `<!-- patchgate:<session>:<effect> -->`.
 * On a resume or redelivery the comment is found by its marker and updated instead of duplicated,
 * and comments carrying a marker are never read as commands. A marker proves nothing by itself (the
 * session id is in every marked comment's source, anyone can copy it), so only a comment that
 * Patchgate itself authored is adopted.
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

/** The author of a listed comment, as the API reports it. */
export type CommentAuthor = { login: string; type?: string } | null | undefined;

/**
 * Posts `body` once per (session, effect). The comment id is remembered through `remember`; when it
 * is unknown (first post, or a crash between posting and remembering) the thread is searched for the
 * marker, so a resumed session adopts the comment it already made.
 */
export async function upsertComment(
  octokit: Octokit,
  outbound: Outbound,
  t: CommentTarget,
  m: string,
  body: string,
  sessionId: string | null,
  memo: { get(): Promise<string | null>; set(id: string): Promise<void> },
  isOurs: (author: CommentAuthor) => Promise<boolean>,
): Promise<{ id: number; url: string; created: boolean }> {
  const known = await memo.get();
  if (known) {
    const updated = await outbound.updateComment(Number(known), body, m, sessionId).catch((e: unknown) => {
      // Deleted by a human: post it anew below, rather than fail this and every later attempt.
      if ((e as { status?: number }).status === 404) return null;
      throw e;
    });
    if (updated) return { id: updated.id, url: updated.html_url, created: false };
  }
  const existing = await findMarked(octokit, t, m, isOurs);
  if (existing) {
    await memo.set(String(existing.id));
    if (existing.body !== outbound.commentBody(body, m, sessionId)) await outbound.updateComment(existing.id, body, m, sessionId);
    return { id: existing.id, url: existing.html_url, created: false };
  }
  const data = await outbound.createComment(t.number, body, m, sessionId);
  await memo.set(String(data.id));
  return { id: data.id, url: data.html_url, created: true };
}

/** Pages through the thread (bounded: see threadComments) looking for the marker on a comment of ours. */
async function findMarked(
  octokit: Octokit,
  t: CommentTarget,
  m: string,
  isOurs: (author: CommentAuthor) => Promise<boolean>,
): Promise<{ id: number; html_url: string; body?: string } | null> {
  for await (const c of threadComments(octokit, t)) if (c.body?.includes(m) && (await isOurs(c.user))) return c;
  return null;
}

type ListedComment = Awaited<ReturnType<Octokit["rest"]["issues"]["listComments"]>>["data"][number];

/** A thread's comments, oldest first, 100 a page and at most 20 pages (2,000 comments). */
export async function* threadComments(octokit: Octokit, t: CommentTarget): AsyncGenerator<ListedComment> {
  for (let page = 1; page <= 20; page++) {
    const { data } = await octokit.rest.issues.listComments({ owner: t.owner, repo: t.repo, issue_number: t.number, per_page: 100, page });
    yield* data;
    if (data.length < 100) return;
  }
}

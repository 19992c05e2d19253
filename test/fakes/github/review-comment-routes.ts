import type { Handler } from "./github-routes.js";
import { invalid, notFound } from "./route-errors.js";
import type { FakeReviewComment, GitHubWorld } from "./github-state.js";

/**
 * Pull request review comments (line comments on the diff), as GitHub serves them: one by id, those
 * of one review (paginated, at most 100 a page), and a reply in a comment's thread (only to a
 * top-level comment, on the PR it belongs to; the body at most 65,536 characters, checked by the server).
 */
function view(w: GitHubWorld, c: FakeReviewComment): unknown {
  const { pull_number, ...rest } = c;
  return { ...rest, pull_request_url: `${w.htmlBase}/api/v3/repos/${w.owner}/${w.repo}/pulls/${pull_number}`, author_association: "COLLABORATOR" };
}

const page = <T>(all: T[], q: URLSearchParams): T[] => {
  const perPage = Math.min(100, Number(q.get("per_page") ?? 30));
  const n = Number(q.get("page") ?? 1);
  return all.slice((n - 1) * perPage, n * perPage);
};

export const REVIEW_COMMENT_ROUTES: [string, string, Handler][] = [
  [
    "GET",
    "/repos/:o/:r/pulls/comments/:id",
    (w, p) => {
      const c = w.reviewComments.find((x) => x.id === Number(p.id));
      return c ? { status: 200, body: view(w, c) } : notFound;
    },
  ],
  [
    "GET",
    "/repos/:o/:r/pulls/:n/reviews/:id/comments",
    (w, p, _b, q) => {
      if (!w.reviews.some((r) => r.id === Number(p.id) && r.pull_number === Number(p.n))) return notFound;
      const of = w.reviewComments.filter((c) => c.pull_request_review_id === Number(p.id) && c.pull_number === Number(p.n));
      return { status: 200, body: page(of, q).map((c) => view(w, c)) };
    },
  ],
  [
    "POST",
    "/repos/:o/:r/pulls/:n/comments/:id/replies",
    (w, p, b) => {
      const parent = w.reviewComments.find((x) => x.id === Number(p.id) && x.pull_number === Number(p.n));
      if (!parent) return notFound;
      if (parent.in_reply_to_id !== undefined) return invalid("in_reply_to_id must be a top-level comment");
      if (typeof b.body !== "string" || b.body === "") return invalid("body is missing");
      const id = w.id();
      const at = w.now();
      const c: FakeReviewComment = {
        ...parent,
        id,
        pull_request_review_id: w.id(),
        in_reply_to_id: parent.id,
        body: b.body,
        user: w.user(w.botLogin),
        created_at: at,
        updated_at: at,
        html_url: `${w.htmlBase}/${w.owner}/${w.repo}/pull/${p.n}#discussion_r${id}`,
      };
      w.reviewComments.push(c);
      return { status: 201, body: view(w, c) };
    },
  ],
];

import { APP_ROUTES } from "./app-routes.js";
import { CHECK_RUN_ROUTES } from "./check-run-routes.js";
import { COMMIT_ROUTES } from "./commit-routes.js";
import { AUTOMATION_ROUTES } from "./automation-routes.js";
import { ISSUE_ROUTES } from "./issue-routes.js";
import { invalid, notFound } from "./route-errors.js";
import { REVIEW_COMMENT_ROUTES } from "./review-comment-routes.js";
import { GIT_DATA_ROUTES } from "./git-data-routes.js";
import type { GitHubWorld } from "./github-state.js";

/** What a route returns; the server turns it into an HTTP response. */
export interface RouteResult {
  status: number;
  body?: unknown;
  /** Sent as text instead of JSON (the contents API with `Accept: application/vnd.github.raw`). */
  raw?: string;
  headers?: Record<string, string>;
}

type Params = Record<string, string>;
export type Handler = (w: GitHubWorld, p: Params, body: any, query: URLSearchParams, accept: string) => RouteResult;

/**
 * GitHub's size limits, enforced as GitHub does (422): a comment, issue or PR body at most 65,536
 * characters, a title at most 256, a check run's summary and text at most 65,535 bytes each.
 */
export function tooLong(b: any): RouteResult | null {
  const chars = (v: unknown, max: number) => typeof v === "string" && [...v].length > max;
  if (chars(b?.body, 65_536)) return invalid("body is too long (maximum is 65536 characters)");
  if (chars(b?.title, 256)) return invalid("title is too long (maximum is 256 characters)");
  for (const k of ["summary", "text"] as const) {
    const v = b?.output?.[k];
    if (typeof v === "string" && Buffer.byteLength(v, "utf8") > 65_535) return invalid(`output.${k} is too long (maximum is 65535 bytes)`);
  }
  return chars(b?.output?.title, 256) ? invalid("output.title is too long") : null;
}

/** The REST subset Patchgate uses, with GitHub's status codes and response shapes. */
const ROUTES: [string, string, Handler][] = [
  ["GET", "/app", (w) => ({ status: 200, body: { id: w.app.id, slug: w.app.slug, name: w.app.slug, node_id: "A_1" } })],
  ["GET", "/users/:login", (w, p) => ({ status: 200, body: w.user(p.login) })],
  [
    "GET",
    "/repos/:o/:r",
    (w) => ({
      status: 200,
      body: {
        id: w.repoId,
        name: w.repo,
        full_name: `${w.owner}/${w.repo}`,
        owner: { login: w.owner, type: "Organization" },
        default_branch: w.defaultBranch,
        private: true,
      },
    }),
  ],
  [
    "GET",
    "/repos/:o/:r/collaborators/:user/permission",
    (w, p) => {
      const permission = w.permissions.get(p.user) ?? "none";
      // GitHub reports triage as `read` in `permission` and the precise role in `role_name`.
      const legacy = permission === "maintain" ? "write" : permission === "triage" ? "read" : permission;
      return { status: 200, body: { permission: legacy, role_name: permission, user: w.user(p.user) } };
    },
  ],
  [
    "GET",
    "/repos/:o/:r/contents/:path*",
    (w, p, _b, _q, accept) => {
      const text = w.files.get(p.path);
      if (text === undefined) return notFound;
      if (accept.includes("raw")) return { status: 200, raw: text };
      return {
        status: 200,
        body: { type: "file", encoding: "base64", path: p.path, name: p.path.split("/").at(-1), content: Buffer.from(text).toString("base64") },
      };
    },
  ],
  [
    "POST",
    "/repos/:o/:r/issues/:n/reactions",
    (w, p, b) => {
      const r = { issue_number: Number(p.n), content: String(b.content), user: w.botLogin };
      w.reactions.push(r);
      return { status: 201, body: { id: w.id(), content: r.content, user: w.user(w.botLogin), created_at: w.now() } };
    },
  ],
  [
    "POST",
    "/repos/:o/:r/issues/comments/:id/reactions",
    (w, p, b) => {
      if (!w.reactionTargets.has(Number(p.id)) && !w.comments.some((c) => c.id === Number(p.id))) return notFound;
      w.reactions.push({ comment_id: Number(p.id), content: String(b.content), user: w.botLogin });
      return { status: 201, body: { id: w.id(), content: String(b.content), user: w.user(w.botLogin), created_at: w.now() } };
    },
  ],
  [
    "GET",
    "/repos/:o/:r/issues/comments/:id",
    (w, p) => {
      const c = [...w.userComments, ...w.comments].find((x) => x.id === Number(p.id));
      return c ? { status: 200, body: c } : notFound;
    },
  ],
  [
    "GET",
    "/repos/:o/:r/issues/:n/events",
    (w, p, _b, q) => {
      const perPage = Number(q.get("per_page") ?? 30);
      const page = Number(q.get("page") ?? 1);
      return { status: 200, body: w.issueEvents.filter((e) => e.issue_number === Number(p.n)).slice((page - 1) * perPage, page * perPage) };
    },
  ],
  ["GET", "/repos/:o/:r/issues/:n/labels", (w, p) => ({ status: 200, body: [...(w.labels.get(Number(p.n)) ?? [])].map((name) => ({ name })) })],
  [
    "GET",
    "/repos/:o/:r/issues/:n",
    (w, p) => {
      const i = w.issues.get(Number(p.n));
      return i ? { status: 200, body: i } : notFound;
    },
  ],
  [
    "GET",
    "/repos/:o/:r/pulls/:n/reviews/:id",
    (w, p) => {
      const r = w.reviews.find((x) => x.id === Number(p.id) && x.pull_number === Number(p.n));
      return r ? { status: 200, body: r } : notFound;
    },
  ],
  ...CHECK_RUN_ROUTES,
  ...REVIEW_COMMENT_ROUTES,
  ...GIT_DATA_ROUTES,
  ...COMMIT_ROUTES,
  ...AUTOMATION_ROUTES,
  ...ISSUE_ROUTES,
  [
    "GET",
    "/repos/:o/:r/issues/:n/comments",
    (w, p, _b, q) => {
      const perPage = Number(q.get("per_page") ?? 30);
      const page = Number(q.get("page") ?? 1);
      const all = [...w.userComments, ...w.comments].filter((c) => c.issue_number === Number(p.n)).sort((a, b) => a.id - b.id);
      return { status: 200, body: all.slice((page - 1) * perPage, page * perPage) };
    },
  ],
  [
    "POST",
    "/repos/:o/:r/issues/:n/comments",
    (w, p, b) => {
      if (typeof b.body !== "string" || b.body === "") return invalid("body is missing");
      const id = w.id();
      const at = w.now();
      const c = {
        id,
        issue_number: Number(p.n),
        body: b.body,
        user: w.user(w.botLogin),
        created_at: at,
        updated_at: at,
        html_url: `${w.issueUrl(Number(p.n))}#issuecomment-${id}`,
      };
      w.comments.push(c);
      return { status: 201, body: c };
    },
  ],
  [
    "DELETE",
    "/repos/:o/:r/issues/comments/:id",
    (w, p) => {
      const at = w.comments.findIndex((x) => x.id === Number(p.id));
      if (at < 0) return notFound;
      w.comments.splice(at, 1);
      return { status: 204, body: null };
    },
  ],
  [
    "PATCH",
    "/repos/:o/:r/issues/comments/:id",
    (w, p, b) => {
      const c = w.comments.find((x) => x.id === Number(p.id));
      if (!c) return notFound;
      Object.assign(c, { body: String(b.body), updated_at: w.now() });
      return { status: 200, body: c };
    },
  ],
  [
    "GET",
    "/repos/:o/:r/pulls",
    (w, _p, _b, q) => {
      const head = q.get("head");
      const state = q.get("state") ?? "open";
      const found = w.pulls.filter((pr) => (!head || pr.head.label === head) && (state === "all" || pr.state === state));
      return { status: 200, body: found };
    },
  ],
  [
    "POST",
    "/repos/:o/:r/pulls",
    (w, _p, b) => {
      if (!b.head || !b.base || !b.title) return invalid("head, base and title are required");
      const label = b.head.includes(":") ? b.head : `${w.owner}:${b.head}`;
      if (w.pulls.some((pr) => pr.head.label === label && pr.state === "open")) return invalid(`A pull request already exists for ${label}.`);
      const number = w.nextNumber();
      const pr = {
        number,
        node_id: `PR_${number}`,
        title: b.title,
        body: b.body ?? "",
        draft: Boolean(b.draft),
        state: "open" as const,
        head: { ref: label.split(":")[1], label },
        base: { ref: b.base },
        html_url: `${w.htmlBase}/${w.owner}/${w.repo}/pull/${number}`,
      };
      w.pulls.push(pr);
      return { status: 201, body: pr };
    },
  ],
  [
    "PATCH",
    "/repos/:o/:r/pulls/:n",
    (w, p, b) => {
      const pr = w.pulls.find((x) => x.number === Number(p.n));
      if (!pr) return notFound;
      for (const k of ["title", "body", "state"] as const) if (b[k] !== undefined) (pr as any)[k] = b[k];
      return { status: 200, body: pr };
    },
  ],
];

/** GitHub offers "ready for review" only through GraphQL; this answers that one mutation. */
export function graphql(w: GitHubWorld, body: any): RouteResult {
  const query = String(body?.query ?? "");
  if (!/mutation[\s\S]*markPullRequestReadyForReview/.test(query)) {
    return { status: 200, body: { errors: [{ message: "the fake GitHub only answers markPullRequestReadyForReview" }] } };
  }
  const id = body.variables?.pullRequestId ?? body.variables?.id;
  const pr = w.pulls.find((x) => x.node_id === id);
  if (!pr) return { status: 200, body: { data: null, errors: [{ type: "NOT_FOUND", message: `Could not resolve to a node with the global id of '${id}'` }] } };
  pr.draft = false;
  return { status: 200, body: { data: { markPullRequestReadyForReview: { pullRequest: { number: pr.number, isDraft: false } } } } };
}

/** Matches `/repos/:o/:r/x` patterns; `:name*` swallows the rest of the path. */
export function matchRoute(method: string, segments: string[]): { handler: Handler; params: Params } | null {
  for (const [m, pattern, handler] of [...ROUTES, ...APP_ROUTES]) {
    if (m !== method) continue;
    const parts = pattern.split("/").filter(Boolean);
    const params: Params = {};
    let ok = true;
    for (let i = 0; i < parts.length && ok; i++) {
      if (parts[i].endsWith("*")) {
        params[parts[i].slice(1, -1)] = segments.slice(i).join("/");
        return segments.length > i ? { handler, params } : null;
      }
      if (parts[i].startsWith(":")) params[parts[i].slice(1)] = segments[i] ?? "";
      else ok = parts[i] === segments[i];
    }
    if (ok && parts.length === segments.length) return { handler, params };
  }
  return null;
}

import type { Handler } from "./github-routes.js";
import type { GitHubWorld } from "./github-state.js";
import { invalid } from "./route-errors.js";

/**
 * Issues as a repository lists and opens them (`GET`/`POST /repos/{o}/{r}/issues`): every issue of
 * the world is open; `creator` filters by author, as GitHub's list does. Pull requests are not issues here.
 */
function issueView(w: GitHubWorld, i: NonNullable<ReturnType<GitHubWorld["issues"]["get"]>>): unknown {
  return { ...i, state: "open", html_url: w.issueUrl(i.number), labels: [], pull_request: undefined };
}

const listIssues: Handler = (w, _p, _b, q) => {
  const creator = q.get("creator");
  const perPage = Math.min(Number(q.get("per_page") ?? 30), 100);
  const page = Number(q.get("page") ?? 1);
  const all = [...w.issues.values()].filter((i) => creator === null || i.user.login === creator).sort((a, b) => b.number - a.number);
  return { status: 200, body: all.slice((page - 1) * perPage, page * perPage).map((i) => issueView(w, i)) };
};

const createIssue: Handler = (w, _p, b) => {
  if (typeof b.title !== "string" || b.title === "") return invalid("title is missing");
  const number = w.nextNumber();
  w.issueNumbers.add(number);
  const at = w.now();
  const issue = {
    id: w.id(),
    number,
    title: b.title,
    body: typeof b.body === "string" ? b.body : "",
    user: w.user(w.botLogin),
    created_at: at,
    updated_at: at,
  };
  w.issues.set(number, issue);
  return { status: 201, body: issueView(w, issue) };
};

export const ISSUE_ROUTES: [string, string, Handler][] = [
  ["GET", "/repos/:o/:r/issues", listIssues],
  ["POST", "/repos/:o/:r/issues", createIssue],
];

import type { Handler, RouteResult } from "./github-routes.js";
import { bareGit } from "./git-data-routes.js";
import type { FakeStatus, FakeUser, GitHubWorld } from "./github-state.js";
import { invalid, notFound } from "./route-errors.js";

/**
 * Commit statuses and a pull request's commits, as GitHub serves them over the bare repository.
 * A status is refused (422) on a sha the repository lacks, with a state outside GitHub's four, or with a
 * description over 140 characters; the combined status keeps the newest of each context. A PR's commits
 * are those of its head not on its base, oldest first, at most 250 (GitHub's own cap), each with the
 * GitHub users its author and committer emails belong to (null when none does).
 */
const STATES = ["error", "failure", "pending", "success"];
/** GitHub lists at most this many commits of a pull request. */
const MAX_PULL_COMMITS = 250;

function commitSha(w: GitHubWorld, ref: string): string | null {
  const r = bareGit(w, ["rev-parse", "--verify", "--quiet", `${ref}^{commit}`]);
  return r.ok && r.out ? r.out : null;
}

function statusView(w: GitHubWorld, s: FakeStatus): unknown {
  const { sha: _sha, ...rest } = s;
  return { ...rest, url: `${w.htmlBase}/api/v3/repos/${w.owner}/${w.repo}/statuses/${s.sha}`, node_id: `SC_${s.id}`, avatar_url: null };
}

function createStatus(w: GitHubWorld, sha: string, b: any): RouteResult {
  if (!/^[0-9a-f]{40}$/.test(sha) || commitSha(w, sha) !== sha) return invalid(`No commit found for SHA: ${sha}`);
  if (!STATES.includes(b.state)) return invalid(`state is not included in the list`);
  if (typeof b.description === "string" && [...b.description].length > 140) return invalid("description is too long (maximum is 140 characters)");
  const at = w.now();
  const s: FakeStatus = {
    id: w.id(),
    sha,
    state: b.state,
    description: b.description ?? null,
    target_url: b.target_url ?? null,
    context: b.context ?? "default",
    created_at: at,
    updated_at: at,
    creator: w.user(w.botLogin),
  };
  w.statuses.push(s);
  return { status: 201, body: statusView(w, s) };
}

/** Newest first, as GitHub lists them. */
const statusesOf = (w: GitHubWorld, sha: string): FakeStatus[] => w.statuses.filter((s) => s.sha === sha).reverse();

function combined(w: GitHubWorld, ref: string): RouteResult {
  const sha = commitSha(w, ref);
  if (!sha) return notFound;
  const latest = new Map<string, FakeStatus>();
  for (const s of statusesOf(w, sha)) if (!latest.has(s.context)) latest.set(s.context, s);
  const all = [...latest.values()];
  const state = all.some((s) => s.state === "error" || s.state === "failure")
    ? "failure"
    : all.length === 0 || all.some((s) => s.state === "pending")
      ? "pending"
      : "success";
  return { status: 200, body: { state, sha, total_count: all.length, statuses: all.map((s) => statusView(w, s)), repository: { id: w.repoId } } };
}

/** The GitHub user an email belongs to: the noreply form names one, others must be known to the world. */
function userOfEmail(w: GitHubWorld, email: string): FakeUser | null {
  const noreply = /^(\d+)\+([^@]+)@users\.noreply\.github\.com$/.exec(email);
  if (noreply) return [...w.users.values()].find((u) => u.id === Number(noreply[1]) && u.login === noreply[2]) ?? null;
  if (email === "noreply@github.com") return w.user("web-flow");
  const login = w.emails.get(email);
  return login ? w.user(login) : null;
}

function pullCommits(w: GitHubWorld, n: number, q: URLSearchParams): RouteResult {
  const pr = w.pulls.find((x) => x.number === n);
  if (!pr) return notFound;
  const range = bareGit(w, ["rev-list", "--reverse", `refs/heads/${pr.base.ref}..refs/heads/${pr.head.ref}`]);
  if (!range.ok) return notFound;
  const shas = range.out.split("\n").filter(Boolean).slice(0, MAX_PULL_COMMITS);
  const perPage = Math.min(100, Number(q.get("per_page") ?? 30));
  const page = Number(q.get("page") ?? 1);
  const body = shas.slice((page - 1) * perPage, page * perPage).map((sha) => {
    const [tree, parents, an, ae, ad, cn, ce, cd, ...message] = bareGit(w, ["show", "-s", "--format=%T%n%P%n%an%n%ae%n%aI%n%cn%n%ce%n%cI%n%B", sha]).out.split(
      "\n",
    );
    return {
      sha,
      node_id: `C_${sha.slice(0, 8)}`,
      html_url: `${w.htmlBase}/${w.owner}/${w.repo}/commit/${sha}`,
      commit: {
        author: { name: an, email: ae, date: ad },
        committer: { name: cn, email: ce, date: cd },
        message: message.join("\n"),
        tree: { sha: tree, url: "" },
      },
      author: userOfEmail(w, ae),
      committer: userOfEmail(w, ce),
      parents: parents
        .split(" ")
        .filter(Boolean)
        .map((p) => ({ sha: p, url: "", html_url: "" })),
    };
  });
  return { status: 200, body };
}

export const COMMIT_ROUTES: [string, string, Handler][] = [
  ["POST", "/repos/:o/:r/statuses/:sha", (w, p, b) => createStatus(w, p.sha, b)],
  [
    "GET",
    "/repos/:o/:r/commits/:ref/statuses",
    (w, p) => (commitSha(w, p.ref) ? { status: 200, body: statusesOf(w, commitSha(w, p.ref)!).map((s) => statusView(w, s)) } : notFound),
  ],
  ["GET", "/repos/:o/:r/commits/:ref/status", (w, p) => combined(w, p.ref)],
  ["GET", "/repos/:o/:r/pulls/:n/commits", (w, p, _b, q) => pullCommits(w, Number(p.n), q)],
];

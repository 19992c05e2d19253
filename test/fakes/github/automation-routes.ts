import type { Handler } from "./github-routes.js";
import type { GitHubWorld } from "./github-state.js";
import { notFound } from "./route-errors.js";
import { bareGit } from "./git-data-routes.js";

/**
 * What automations read: the commits that changed a path on a branch (`GET /repos/{o}/{r}/commits?path=`),
 * newest first, in GitHub's shape: the git author and committer, and the GitHub accounts they belong
 * to (`author`: null when GitHub links the commit to no account).
 */
function listCommits(w: GitHubWorld, q: URLSearchParams): unknown[] {
  const path = q.get("path");
  const perPage = Math.min(Number(q.get("per_page") ?? 30), 100);
  const page = Number(q.get("page") ?? 1);
  const matching = w.fileCommits.filter((c) => path === null || c.paths.includes(path)).reverse();
  return matching.slice((page - 1) * perPage, page * perPage).map((c) => {
    const person = { name: c.author?.login ?? "someone", email: `${c.author?.login ?? "someone"}@example.com`, date: c.date };
    return {
      sha: c.sha,
      node_id: `C_${c.sha.slice(0, 8)}`,
      commit: { author: person, committer: person, message: c.message, tree: { sha: "0".repeat(40), url: "" }, url: "", comment_count: 0 },
      url: `${w.htmlBase}/api/v3/repos/${w.owner}/${w.repo}/commits/${c.sha}`,
      html_url: `${w.htmlBase}/${w.owner}/${w.repo}/commit/${c.sha}`,
      comments_url: "",
      author: c.author,
      committer: c.author,
      parents: [],
    };
  });
}

type Run = GitHubWorld["workflowRuns"][number];

function runView(w: GitHubWorld, r: Run): unknown {
  return {
    id: r.id,
    check_suite_id: r.checkSuiteId,
    head_sha: r.headSha,
    status: "completed",
    conclusion: r.conclusion,
    name: "CI",
    html_url: `${w.htmlBase}/runs/${r.id}`,
  };
}

function jobView(r: Run, j: Run["jobs"][number]): unknown {
  return { id: j.id, run_id: r.id, head_sha: r.headSha, name: j.name, status: "completed", conclusion: j.conclusion, steps: [] };
}

/** Where the Actions API sends a job's log: a short-lived signed URL on another host, which takes no token. */
const LOGS_PATH = "/_job-logs/";

/** The signed URL's download (not under the API): the log text, or null when `url` is not one. */
export function jobLogDownload(w: GitHubWorld, url: string): { status: number; text: string } | null {
  if (!url.startsWith(LOGS_PATH)) return null;
  const id = Number(url.slice(LOGS_PATH.length).split("?")[0]);
  const job = w.workflowRuns.flatMap((r) => r.jobs).find((j) => j.id === id);
  return job ? { status: 200, text: job.log } : { status: 404, text: "The specified blob does not exist." };
}

/** A pull request with its head as the repository has it now. */
const getPull: Handler = (w, p) => {
  const pr = w.pulls.find((x) => x.number === Number(p.n));
  if (!pr) return notFound;
  const r = bareGit(w, ["rev-parse", "--verify", "--quiet", `refs/heads/${pr.head.ref}^{commit}`]);
  return { status: 200, body: { ...pr, head: { ...pr.head, sha: r.ok ? r.out : null } } };
};

export const AUTOMATION_ROUTES: [string, string, Handler][] = [
  ["GET", "/repos/:o/:r/pulls/:n", getPull],
  ["GET", "/repos/:o/:r/commits", (w, _p, _b, q) => ({ status: 200, body: listCommits(w, q) })],
  [
    "GET",
    "/repos/:o/:r/actions/runs",
    (w, _p, _b, q) => {
      const suite = q.get("check_suite_id");
      const runs = w.workflowRuns.filter((r) => suite === null || r.checkSuiteId === Number(suite));
      return { status: 200, body: { total_count: runs.length, workflow_runs: runs.map((r) => runView(w, r)) } };
    },
  ],
  [
    "GET",
    "/repos/:o/:r/actions/runs/:id/jobs",
    (w, p) => {
      const run = w.workflowRuns.find((r) => r.id === Number(p.id));
      return run ? { status: 200, body: { total_count: run.jobs.length, jobs: run.jobs.map((j) => jobView(run, j)) } } : notFound;
    },
  ],
  [
    "GET",
    "/repos/:o/:r/actions/jobs/:id/logs",
    (w, p) =>
      w.workflowRuns.some((r) => r.jobs.some((j) => j.id === Number(p.id)))
        ? { status: 302, headers: { location: `${w.htmlBase}${LOGS_PATH}${p.id}?sig=signed` } }
        : notFound,
  ],
];

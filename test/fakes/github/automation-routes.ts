import type { Handler } from "./github-routes.js";
import type { GitHubWorld } from "./github-state.js";

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

export const AUTOMATION_ROUTES: [string, string, Handler][] = [["GET", "/repos/:o/:r/commits", (w, _p, _b, q) => ({ status: 200, body: listCommits(w, q) })]];

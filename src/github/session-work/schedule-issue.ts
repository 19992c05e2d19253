import type { Repo } from "../inbound/intent.js";
import type { Octokit } from "../octokit.js";
import type { Outbound } from "../outbound/outbound.js";

/**
 * The issue a scheduled automation's runs are carried by: an open issue with the run's title that
 * the app itself opened (anyone may open an issue with that title; only the app's own is reused),
 * or a new one. Its body is the app's own fixed words: the task stays in the config, not in a post.
 */
export async function scheduleIssue(octokit: Octokit, outbound: Outbound, repo: Repo, botLogin: string, title: string, automation: string): Promise<number> {
  const base = { owner: repo.owner, repo: repo.repo };
  const open = await octokit.paginate(octokit.rest.issues.listForRepo, { ...base, state: "open", creator: botLogin, per_page: 100 });
  const mine = open.find((i) => i.title === title && !i.pull_request && i.user?.login === botLogin);
  if (mine) return mine.number;
  const body = `Patchgate opened this issue for the scheduled automation \`${automation}\` in \`.github/patchgate.yml\`. Each run's session reports here.`;
  const data = await outbound.createIssue({ title, body });
  return data.number;
}

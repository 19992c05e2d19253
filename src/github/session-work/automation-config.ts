import { REPO_CONFIG_PATH } from "../../config/repo-config.js";
import { triggerOf, type Automation, type AutomationTrigger } from "../../config/automations.js";
import { parseRepoConfig, type RepoConfigResult } from "../../config/load-repo-config.js";
import type { AutomationSource } from "../../session/types.js";
import type { Repo } from "../inbound/intent.js";
import type { Octokit } from "../octokit.js";

/**
 * The automations as the default branch declares them, read at one commit: the default branch's last
 * commit that changed `.github/patchgate.yml`. The session's config is read at that same commit, so
 * an approval that names it (`approve_plan: auto`) names exactly the text that allowed it, and who
 * last changed it — the person answerable for the automation, never shown as its approver.
 */
export interface DeclaredAutomations {
  /** The commit the file was read at. */
  commit: string;
  lastChangedBy: string | null;
  config: RepoConfigResult;
  /** The file's text at `commit`, for the session's start (which parses it once more, as for any start). */
  readConfig: () => Promise<string | null>;
}

interface ListedCommit {
  sha: string;
  author: { login: string; type?: string } | null;
}

/** The declared automations, or null when the default branch has no `.github/patchgate.yml`. */
export async function readAutomations(octokit: Octokit, repo: Pick<Repo, "owner" | "repo" | "defaultBranch">): Promise<DeclaredAutomations | null> {
  const base = { owner: repo.owner, repo: repo.repo };
  const { data } = await octokit.rest.repos.listCommits({ ...base, sha: repo.defaultBranch, path: REPO_CONFIG_PATH, per_page: 1 });
  const last = (data as unknown as ListedCommit[])[0];
  if (!last) return null;
  const text = await fileAt(octokit, base, last.sha);
  return { commit: last.sha, lastChangedBy: last.author?.login ?? null, config: parseRepoConfig(text), readConfig: () => Promise.resolve(text) };
}

async function fileAt(octokit: Octokit, base: { owner: string; repo: string }, ref: string): Promise<string | null> {
  try {
    const { data } = await octokit.rest.repos.getContent({ ...base, path: REPO_CONFIG_PATH, ref, mediaType: { format: "raw" } });
    return typeof data === "string" ? data : null;
  } catch (e) {
    if ((e as { status?: number }).status === 404) return null;
    throw e;
  }
}

/** The automations of a valid file (none of an invalid one: a broken file starts nothing). */
export function automationsOf(d: DeclaredAutomations): Automation[] {
  return d.config.ok ? (d.config.config.automations ?? []) : [];
}

/** What a session records of the automation that started it. */
export function automationSource(a: Automation, d: DeclaredAutomations): AutomationSource {
  return { name: a.name, on: describeTrigger(triggerOf(a)), configCommit: d.commit, lastChangedBy: d.lastChangedBy, approvePlan: a.approve_plan === "auto" };
}

function describeTrigger(t: AutomationTrigger): string {
  switch (t.kind) {
    case "issue_labeled":
      return `issue_labeled ${t.label}`;
    case "issue_opened":
      return t.labels.length > 0 ? `issue_opened with ${t.labels.join(", ")}` : "issue_opened";
    case "schedule":
      return `schedule ${t.cron}`;
    case "ci_failed":
      return "ci_failed";
  }
}

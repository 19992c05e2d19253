import { parseRepoConfig } from "../config/load-repo-config.js";
import { REPO_CONFIG_PATH } from "../config/repo-config.js";
import { git } from "../workspace/git.js";

/**
 * Whether the repository's config at `rev` (`approvals.plan` / `approvals.writes: not_requester`)
 * asks that someone other than the requester approve. A config that does not parse asks it of both:
 * a verifier that cannot read the rule applies the stricter one.
 */
export async function approvalRulesAt(gitDir: string, rev: string): Promise<{ plan: boolean; writes: boolean }> {
  const r = await git(["show", `${rev}:${REPO_CONFIG_PATH}`], { cwd: gitDir });
  const parsed = parseRepoConfig(r.exitCode === 0 ? r.stdout : null);
  if (!parsed.ok) return { plan: true, writes: true };
  return { plan: parsed.config.approvals.plan === "not_requester", writes: parsed.config.approvals.writes === "not_requester" };
}

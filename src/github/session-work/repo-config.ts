import { REPO_CONFIG_PATH, RepoConfigSchema, type RepoConfig } from "../../config/repo-config.js";
import type { SessionState } from "../../session/state.js";
import { parseRepoConfig, type RepoConfigResult } from "../../config/load-repo-config.js";
import type { Repo } from "../inbound/intent.js";
import type { Octokit } from "../octokit.js";

/**
 * `.github/patchgate.yml` for the app: the text from the default branch — never a PR head, where a
 * contributor could loosen the policy for their own change — through the one loader the CLI uses
 * too (config/load-repo-config.ts), so a broken file is named with its field, line and what is
 * allowed in both.
 */
export type ConfigResult = RepoConfigResult;

/** The default branch's `.github/patchgate.yml` as text, or null when there is none. */
export function configReader(octokit: Octokit, repo: Pick<Repo, "owner" | "repo">): () => Promise<string | null> {
  return async () => {
    try {
      const { data } = await octokit.rest.repos.getContent({ owner: repo.owner, repo: repo.repo, path: REPO_CONFIG_PATH, mediaType: { format: "raw" } });
      return typeof data === "string" ? data : null;
    } catch (e) {
      if ((e as { status?: number }).status === 404) return null;
      throw e;
    }
  };
}

/** The config a session started under, from its `session_created` (defaults for one that recorded none). */
export function sessionRepoConfig(s: Pick<SessionState, "repoConfig">): RepoConfig {
  return RepoConfigSchema.parse(s.repoConfig ?? {});
}

export async function loadRepoConfig(readConfig: () => Promise<string | null>): Promise<ConfigResult> {
  return parseRepoConfig(await readConfig());
}

export function configErrorText(r: Extract<ConfigResult, { ok: false }>): string {
  const e = r.error;
  const field = e.kind === "yaml_syntax" ? "(file)" : e.field === "" || e.field === null ? "(top level)" : e.field;
  const problem = e.kind === "yaml_syntax" ? `not valid YAML: ${e.problem}` : e.kind === "unknown_field" ? `unknown field; ${e.problem}` : e.problem;
  const line = e.line === null ? "" : ` (line ${e.line})`;
  return `⚠️ \`${REPO_CONFIG_PATH}\` on the default branch is invalid, so no session was started.\n\n- field \`${field}\`: ${problem}${line}\n\nFix the file and ask again.`;
}

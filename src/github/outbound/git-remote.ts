import type { OperatorEnv } from "../../config/operator-env.js";
import type { GitAuth } from "../../workspace/types.js";
import type { Repo } from "../inbound/intent.js";
import type { Octokit } from "../octokit.js";

/**
 * Where and how git talks to GitHub. The token travels only as a per-call `http.extraHeader`
 * (see src/workspace), so it is never written to `.git/config` and never enters the sandbox.
 */
export function gitBaseUrl(env: OperatorEnv): string {
  return env.GHE_HOST ? `${env.GHE_PROTOCOL || "https"}://${env.GHE_HOST}` : "https://github.com";
}

export function remoteUrl(base: string, repo: Pick<Repo, "owner" | "repo">): string {
  return `${base}/${repo.owner}/${repo.repo}.git`;
}

/** GitHub accepts an installation token as the password of the `x-access-token` user. */
export function authFor(token: string): GitAuth {
  return { header: `Authorization: Basic ${Buffer.from(`x-access-token:${token}`).toString("base64")}` };
}

/**
 * A newly minted installation token for git, never a cached one: each resume may come hours after
 * the last. It is asked for with the app's JWT and narrowed to this one repository and to
 * `contents: write`, so the credential git carries can do nothing else. (Calling
 * `octokit.auth({ refresh: true })` instead would ignore a GHE base URL: auth-app's own request
 * has none.)
 */
export async function freshGitToken(appOctokit: Octokit, repo: Repo): Promise<string> {
  const { data } = await appOctokit.request("POST /app/installations/{installation_id}/access_tokens", {
    installation_id: repo.installationId,
    repositories: [repo.repo],
    permissions: { contents: "write" },
  });
  return data.token;
}

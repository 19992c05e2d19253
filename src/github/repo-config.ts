import { REPO_CONFIG_PATH, RepoConfigSchema, type RepoConfig } from "../config/repo-config.js";
import type { Repo } from "./intent.js";
import type { Octokit } from "./octokit.js";

/**
 * `.github/patchgate.yml` through Probot's `context.config`, which reads the default branch only —
 * never a PR head, where a contributor could loosen the policy for their own change. Probot has
 * already parsed the YAML; the zod schema decides, and its first complaint names the field.
 */
export type ConfigResult = { ok: true; config: RepoConfig } | { ok: false; field: string; message: string };

/**
 * The default branch's `.github/patchgate.yml`, parsed, or null when there is none: what Probot's
 * `context.config` reads, also for a delivery replayed from the inbox, which has no context.
 */
export function configReader(octokit: Octokit, repo: Pick<Repo, "owner" | "repo">): () => Promise<unknown> {
  return async () => {
    const { config, files } = await octokit.config.get({ owner: repo.owner, repo: repo.repo, path: REPO_CONFIG_PATH });
    return files.some((f) => f.config !== null) ? config : null;
  };
}

export async function loadRepoConfig(readConfig: () => Promise<unknown>): Promise<ConfigResult> {
  let raw: unknown;
  try {
    raw = await readConfig();
  } catch (e) {
    // Probot throws for YAML that does not parse or is not a mapping.
    return { ok: false, field: "(file)", message: e instanceof Error ? e.message.replace(/^\[[^\]]+\]\s*/, "") : String(e) };
  }
  const parsed = RepoConfigSchema.safeParse(raw ?? {});
  if (parsed.success) return { ok: true, config: parsed.data };
  const issue = parsed.error.issues[0];
  const unknown = issue.code === "unrecognized_keys" ? (issue as { keys?: string[] }).keys?.[0] : undefined;
  const path = [...issue.path.map(String), ...(unknown ? [unknown] : [])];
  const field = path.length > 0 ? path.join(".") : "(root)";
  return { ok: false, field, message: issue.message };
}

export function configErrorText(r: Extract<ConfigResult, { ok: false }>): string {
  return `⚠️ \`${REPO_CONFIG_PATH}\` on the default branch is invalid, so no session was started.\n\n- field \`${r.field}\`: ${r.message}\n\nFix the file and ask again.`;
}

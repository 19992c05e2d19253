import type { RepoConfig } from "../config/repo-config.js";
import type { SessionSettings } from "../session/events.js";
import type { Ledger } from "../store/ledger.js";

type Limits = SessionSettings["limits"];

/**
 * The session's budget on the command line: a flag wins over `.github/patchgate.yml`, which wins
 * over the defaults (the config's schema fills those in, e.g. max_cost_usd 5).
 */
export function cliLimits(config: RepoConfig, flags: { maxCostUsd?: number }): Limits {
  const l = config.limits;
  return {
    ...(l.max_steps !== undefined ? { maxSteps: l.max_steps } : {}),
    ...(l.max_tokens !== undefined ? { maxTokens: l.max_tokens } : {}),
    maxCostUsd: flags.maxCostUsd ?? l.max_cost_usd,
  };
}

/**
 * The CLI creates its session before the clone (so a failed clone still ends it), with the flags'
 * limits; once the repository's config is read, the whole budget is recorded, when it differs.
 */
export async function applyRepoLimits(ledger: Ledger, limits: Limits, source: string): Promise<void> {
  const now = ledger.state.settings.limits;
  const same = now.maxSteps === limits.maxSteps && now.maxTokens === limits.maxTokens && now.maxCostUsd === limits.maxCostUsd;
  if (!same) await ledger.append({ type: "limits_configured", limits, source });
}

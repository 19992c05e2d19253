import { hasCeilings, type OperatorBudgets } from "../config/budgets.js";

/**
 * The operator's budgets are counted per GitHub installation and repository, by their ids, and a
 * local run has neither: its model calls are this machine's user's. So they do not apply to it, and a
 * settings file that sets them gets this said once at the start rather than a silent gap. What limits
 * a local session is its own cost limit (`--max-cost-usd`, `limits.max_cost_usd`).
 */
export function budgetNotice(budgets: OperatorBudgets): string | null {
  const named = [...Object.values(budgets.installations), ...Object.values(budgets.repositories)].some((c) => c.usd !== undefined || c.tokens !== undefined);
  const set =
    named || hasCeilings({ installation: budgets.installation, repository: budgets.repository, requesterDailySessions: budgets.requesterDailySessions });
  return set
    ? "note: the settings' budgets (monthly ceilings, daily sessions) are counted per GitHub installation and repository and do not apply to a local run; this session's own cost limit does (--max-cost-usd, limits.max_cost_usd)"
    : null;
}

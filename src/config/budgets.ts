import type { MonthlyCeiling, TenantCeilings } from "../policy/spend-ceiling.js";
import type { Tenant } from "../session/tenant.js";

/**
 * The operator's budgets (the `budgets:` section of the operator's settings, ./budget-settings.ts):
 * what an installation and a repository may spend in a month, and how many sessions one person may
 * start in a day. Apart from the parser, so that a process without settings loads no schema library.
 * Tenants are found by GitHub's ids, never by name.
 */
export interface OperatorBudgets {
  /** Every installation's ceiling, unless `installations` names it. */
  installation: MonthlyCeiling;
  /** Every repository's ceiling, unless `repositories` names it. */
  repository: MonthlyCeiling;
  requesterDailySessions?: number;
  /** By installation id. */
  installations: Record<string, MonthlyCeiling>;
  /** By repository id. */
  repositories: Record<string, MonthlyCeiling>;
}

export const NO_BUDGETS: OperatorBudgets = { installation: {}, repository: {}, installations: {}, repositories: {} };

/** What a repository's `.github/patchgate.yml` says under `limits` about the month and the day. */
export interface RepoBudgetLimits {
  monthly_cost_usd?: number;
  monthly_tokens?: number;
  daily_sessions_per_requester?: number;
}

/**
 * The ceilings of one tenant: the operator's, each lowered by the repository's own `limits` where it
 * asks for less. A repository asking for more changes nothing: it never raises what the operator pays for.
 */
export function ceilingsFor(budgets: OperatorBudgets, tenant: Tenant, repo: RepoBudgetLimits = {}): TenantCeilings {
  const installation = budgets.installations[String(tenant.installationId)] ?? budgets.installation;
  const operatorRepo = budgets.repositories[String(tenant.repoId)] ?? budgets.repository;
  const repository: MonthlyCeiling = {
    ...defined("usd", lower(operatorRepo.usd, repo.monthly_cost_usd)),
    ...defined("tokens", lower(operatorRepo.tokens, repo.monthly_tokens)),
  };
  const daily = lower(budgets.requesterDailySessions, repo.daily_sessions_per_requester);
  return { installation, repository, ...(daily !== undefined && { requesterDailySessions: daily }) };
}

/** Whether any ceiling applies at all: without one, nothing is counted before a start. */
export function hasCeilings(c: TenantCeilings): boolean {
  const set = (m: MonthlyCeiling) => m.usd !== undefined || m.tokens !== undefined;
  return set(c.installation) || set(c.repository) || c.requesterDailySessions !== undefined;
}

function lower(operator: number | undefined, repo: number | undefined): number | undefined {
  if (repo === undefined) return operator;
  return operator === undefined ? repo : Math.min(operator, repo);
}

function defined<K extends string>(key: K, value: number | undefined): Partial<Record<K, number>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, number>);
}

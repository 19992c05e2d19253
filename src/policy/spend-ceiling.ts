/**
 * The operator's spend ceilings, judged: a pure rule, given what was spent and what may be. A ceiling is
 * reached at or past it (the next model call could only go further over). Cost is judged in USD only
 * where a price is known: a call whose model has no price counts toward the token ceiling alone, so an
 * operator whose models have no price sets `tokens`.
 */

/** What one scope may spend in a month; an absent field is no ceiling. */
export interface MonthlyCeiling {
  usd?: number;
  tokens?: number;
}

/** What a scope spent: the sum of its recorded model calls (priced ones only in `usd`). */
export interface Spend {
  usd: number;
  tokens: number;
  calls: number;
  /** Calls whose price was unknown: their tokens are in `tokens`, nothing of them in `usd`. */
  unpricedCalls: number;
}

export type BudgetScope = "installation" | "repository";

/** The ceilings that apply to one session's tenant, each scope with its own spend. */
export interface TenantCeilings {
  installation: MonthlyCeiling;
  repository: MonthlyCeiling;
  /** Sessions one requester may start in a UTC day, in this repository; absent: no limit. */
  requesterDailySessions?: number;
}

export type SpendVerdict = { over: false } | { over: true; scope: BudgetScope; unit: "usd" | "tokens"; ceiling: number; spent: number };

export const NO_SPEND: Spend = { usd: 0, tokens: 0, calls: 0, unpricedCalls: 0 };

/** The first ceiling reached, the installation's before the repository's, USD before tokens; else not over. */
export function judgeSpend(ceilings: TenantCeilings, spent: Record<BudgetScope, Spend>): SpendVerdict {
  for (const scope of ["installation", "repository"] as const) {
    const c = ceilings[scope];
    const s = spent[scope];
    if (c.usd !== undefined && s.usd >= c.usd) return { over: true, scope, unit: "usd", ceiling: c.usd, spent: s.usd };
    if (c.tokens !== undefined && s.tokens >= c.tokens) return { over: true, scope, unit: "tokens", ceiling: c.tokens, spent: s.tokens };
  }
  return { over: false };
}

/** A ceiling raised by `extraUsd` for one session (`/agent budget +<usd>`): its USD ceilings move, its token ceilings do not. */
export function raisedBy(ceilings: TenantCeilings, extraUsd: number): TenantCeilings {
  const raise = (c: MonthlyCeiling): MonthlyCeiling => (c.usd === undefined ? c : { ...c, usd: c.usd + extraUsd });
  return { ...ceilings, installation: raise(ceilings.installation), repository: raise(ceilings.repository) };
}

/** The start of the UTC month and of the UTC day `now` falls in, as the store's ISO timestamps. */
export function periodStarts(now: Date): { month: string; day: string } {
  const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString();
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())).toISOString();
  return { month, day };
}

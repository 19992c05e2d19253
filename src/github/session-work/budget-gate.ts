import { ceilingsFor, hasCeilings, NO_BUDGETS, type RepoBudgetLimits } from "../../config/budgets.js";
import { judgeSpend, periodStarts, raisedBy, type BudgetScope, type Spend, type SpendVerdict, type TenantCeilings } from "../../policy/spend-ceiling.js";
import { formatUsd } from "../../safety/markdown.js";
import { tenantOf, type Tenant } from "../../session/tenant.js";
import type { SessionState } from "../../session/state.js";
import type { BudgetPark } from "../../session/budget-park.js";
import type { PatchgateDeps } from "../deps.js";

/** Why a session may not start or go on: the scope whose ceiling is reached, and the words for the thread. */
export interface BudgetRefusal {
  scope: BudgetScope | "requester_day";
  text: string;
}

/** What the tenant spent this UTC month, and the ceilings that apply to it. */
export interface TenantSpend {
  ceilings: TenantCeilings;
  spent: Record<BudgetScope, Spend>;
  month: string;
}

/** The tenant's spend this month, read from the store (each recorded model call once); null without any ceiling. */
export async function tenantSpend(
  deps: Pick<PatchgateDeps, "store" | "budgets">,
  tenant: Tenant,
  repo: RepoBudgetLimits,
  now: Date,
): Promise<TenantSpend | null> {
  const ceilings = ceilingsFor(deps.budgets ?? NO_BUDGETS, tenant, repo);
  if (!hasCeilings(ceilings)) return null;
  const { month } = periodStarts(now);
  const [installation, repository] = await Promise.all([
    deps.store.spendSince({ installationId: tenant.installationId }, month),
    deps.store.spendSince({ installationId: tenant.installationId, repoId: tenant.repoId }, month),
  ]);
  return { ceilings, spent: { installation, repository }, month };
}

/**
 * Whether a new session may start: refused when the installation or the repository has reached a
 * monthly ceiling, or the requester has started as many sessions today as the day allows.
 */
export async function startRefusal(
  deps: Pick<PatchgateDeps, "store" | "budgets">,
  tenant: Tenant,
  requester: { login: string; id: number },
  repo: RepoBudgetLimits,
  now = new Date(),
): Promise<BudgetRefusal | null> {
  const t = await tenantSpend(deps, tenant, repo, now);
  if (!t) return null;
  const verdict = judgeSpend(t.ceilings, t.spent);
  if (verdict.over) return { scope: verdict.scope, text: refusedText(verdict, t.month) };
  const daily = t.ceilings.requesterDailySessions;
  if (daily === undefined) return null;
  const started = await deps.store.startsSince({ ...tenant, requesterId: requester.id }, periodStarts(now).day);
  if (started < daily) return null;
  return {
    scope: "requester_day",
    text: [
      `⛔ Patchgate did not start a session: @${requester.login} has started ${started} session(s) in this repository today (UTC), and ${daily} a day is the most one person may start here.`,
      "",
      "Sessions already running go on. Ask again tomorrow, or ask the operator to change `requester_daily_sessions`.",
    ].join("\n"),
  };
}

/**
 * The loop's gate before each model call: the tenant's ceilings over this month's spend, raised by what
 * humans added for this session. Undefined (no gate) for a session without a tenant or without budgets.
 */
export function spendGate(
  deps: Pick<PatchgateDeps, "store" | "budgets">,
  state: SessionState,
  repo: RepoBudgetLimits,
): ((s: SessionState) => Promise<Omit<BudgetPark, "resumeIn"> | null>) | undefined {
  const tenant = tenantOf(state.task.source);
  if (!tenant || !deps.budgets) return undefined;
  return async (s) => {
    const t = await tenantSpend(deps, tenant, repo, new Date());
    if (!t) return null;
    const v = judgeSpend(raisedBy(t.ceilings, s.budget.raisedUsd), t.spent);
    return v.over ? { scope: v.scope, unit: v.unit, ceiling: v.ceiling, spent: v.spent } : null;
  };
}

/** The ceiling and the spend in words: `$12.00 of its $10.00` or `1200000 tokens of its 1000000`. */
function spentOfCeiling(v: Extract<SpendVerdict, { over: true }>): string {
  return v.unit === "usd" ? `${formatUsd(v.spent)} of its ${formatUsd(v.ceiling)}` : `${v.spent} tokens of its ${v.ceiling}`;
}

function refusedText(v: Extract<SpendVerdict, { over: true }>, month: string): string {
  return [
    `⛔ Patchgate did not start a session: this ${v.scope} has spent ${spentOfCeiling(v)} monthly ceiling on model calls since ${month.slice(0, 10)} (UTC).`,
    "",
    "Sessions already running go on until they reach it. The operator sets the ceiling (`budgets:` in the operator's settings); it starts again next month.",
  ].join("\n");
}

import { IllegalTransitionError } from "./errors.js";
import type { SessionEvent } from "./events.js";
import { requireNoOpenCalls } from "./open-calls.js";
import { requireLive, requirePhase } from "./phase-guards.js";
import type { SessionState } from "./state.js";
import type { BudgetPark } from "./budget-park.js";

type BudgetEvent = Extract<SessionEvent, { type: "budget_parked" | "budget_raised" }>;

/**
 * A session parks between model calls only (no call of the last turn is open), from the phase the
 * loop runs in, and goes back to it when a human raises the ceiling; a raise while it runs is kept
 * for the next check.
 */
export function reduceBudget(s: SessionState, next: SessionState, e: BudgetEvent): SessionState {
  switch (e.type) {
    case "budget_parked": {
      requirePhase(s, e, ["planning", "executing"]);
      requireNoOpenCalls(s, e.type);
      if (e.resumeIn !== s.phase) throw new IllegalTransitionError(e.type, s.phase, `a session in ${s.phase} cannot go on in ${e.resumeIn}`);
      const park: BudgetPark = { scope: e.scope, unit: e.unit, ceiling: e.ceiling, spent: e.spent, resumeIn: e.resumeIn };
      return { ...next, phase: "awaiting_budget", budget: { ...s.budget, parked: park } };
    }
    case "budget_raised": {
      requireLive(s, e);
      if (!(e.usd > 0)) throw new IllegalTransitionError(e.type, s.phase, "a raise is a positive amount of USD");
      const raisedUsd = s.budget.raisedUsd + e.usd;
      if (s.phase !== "awaiting_budget") return { ...next, budget: { ...s.budget, raisedUsd } };
      return { ...next, phase: s.budget.parked!.resumeIn, budget: { raisedUsd, parked: null } };
    }
  }
}

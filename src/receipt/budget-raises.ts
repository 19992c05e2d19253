import type { StoredEvent } from "../session/events.js";
import { approval } from "./receipt-approval.js";
import type { ReceiptPredicate } from "./predicate-schema.js";

type BudgetRaise = NonNullable<ReceiptPredicate["budgetRaises"]>[number];

/**
 * Every raise of the operator's ceilings a human gave the session (`/agent budget +<usd>`), with the
 * ceiling it lifted: the park it ended, if the session was parked. Absent when there was none, so
 * receipts of sessions without raises keep their shape.
 */
export function budgetRaisesOf(events: readonly StoredEvent[]): Pick<ReceiptPredicate, "budgetRaises"> {
  const raises: BudgetRaise[] = [];
  let parked: BudgetRaise["ceiling"] = null;
  for (const e of events) {
    if (e.type === "budget_parked") parked = { scope: e.scope, unit: e.unit, ceiling: e.ceiling, spent: e.spent };
    if (e.type !== "budget_raised") continue;
    raises.push({ usd: e.usd, ceiling: parked, approvedBy: approval(e.by, e) });
    // A raise ends the park (session/budget-transitions.ts): a later raise while running lifted none.
    parked = null;
  }
  return raises.length === 0 ? {} : { budgetRaises: raises };
}

import { formatUsd } from "../safety/markdown.js";
import type { BudgetPark } from "../session/budget-park.js";

/** An amount of a ceiling's unit: `$12.00`, or `1200000 tokens`. */
function budgetAmount(unit: BudgetPark["unit"], n: number): string {
  return unit === "usd" ? formatUsd(n) : `${n} tokens`;
}

/** `the installation's monthly ceiling of $10.00 is reached: $10.20 spent`, for the check run, the report and the comment. */
export function budgetParkWords(p: Pick<BudgetPark, "scope" | "unit" | "ceiling" | "spent">): string {
  return `the ${p.scope}'s monthly ceiling of ${budgetAmount(p.unit, p.ceiling)} is reached: ${budgetAmount(p.unit, p.spent)} spent`;
}

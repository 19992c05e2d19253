/**
 * The whole-session budget (settings.limits), checked before every model call. A limit is reached
 * when the amount used is at or past it: the next call could only go further over.
 *
 * Cost is judged only when it is known. If any call's model had no price, the session's cost is
 * null and a cost limit cannot be judged: the check says so in `note` instead of guessing a number.
 */

import type { SessionState } from "../../session/state.js";
import { formatUsd } from "../../safety/markdown.js";
import { grantedUsd } from "../../session/grants.js";

type BudgetLimit = "max_steps" | "max_tokens" | "max_cost_usd";

export type BudgetCheck = { exceeded: false; note?: string } | { exceeded: true; which: BudgetLimit; message: string };

export function checkBudget(state: SessionState): BudgetCheck {
  const { maxSteps, maxTokens } = state.settings.limits;
  // A human may have granted this session more (request_grant): it ends with the session.
  const maxCostUsd = state.settings.limits.maxCostUsd === undefined ? undefined : state.settings.limits.maxCostUsd + grantedUsd(state.grants);

  if (maxSteps !== undefined && state.step >= maxSteps) {
    return { exceeded: true, which: "max_steps", message: `step budget spent: ${state.step} of ${maxSteps} model calls made` };
  }

  const tokens = state.usage.promptTokens + state.usage.completionTokens;
  if (maxTokens !== undefined && tokens >= maxTokens) {
    const est = state.usage.estimated ? " (partly estimated)" : "";
    return {
      exceeded: true,
      which: "max_tokens",
      message: `token budget spent: ${tokens} of ${maxTokens} tokens used${est}`,
    };
  }

  if (maxCostUsd !== undefined) {
    const cost = state.usage.costUsd;
    if (cost === null) {
      return {
        exceeded: false,
        note: `cost limit ${formatUsd(maxCostUsd)} cannot be judged: no price is known for model ${state.model}`,
      };
    }
    if (cost >= maxCostUsd) {
      return {
        exceeded: true,
        which: "max_cost_usd",
        message: `cost budget spent: ${formatUsd(cost)} of ${formatUsd(maxCostUsd)}`,
      };
    }
  }
  return { exceeded: false };
}

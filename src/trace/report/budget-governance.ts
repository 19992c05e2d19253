import { formatUsd } from "../../safety/markdown.js";
import { budgetParkWords } from "../budget-words.js";
import { bullets, para, strong, type Block, type Inline } from "./doc.js";
import type { SessionView } from "./session-view.js";
import { byWhom, when } from "./words.js";

/** Governance's part for the operator's budget: each park at a ceiling, and each raise, with who raised it. */
export function budgetGovernance(v: SessionView): Block[] {
  const items = v.events.flatMap((e): Inline[][] => {
    if (e.type === "budget_parked") return [[`Parked at ${when(e.at)}: ${budgetParkWords(e)}`]];
    if (e.type === "budget_raised") return [["Raised by ", strong(formatUsd(e.usd)), ` for this session by ${byWhom(e.by)} at ${when(e.at)}`]];
    return [];
  });
  return items.length === 0 ? [] : [para(strong("Budget")), bullets(items)];
}

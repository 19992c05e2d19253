import type { Ledger } from "../../store/ledger.js";
import { budgetParkWords } from "../../trace/budget-words.js";
import type { SessionWork } from "../deps.js";
import { postComment } from "../outbound/replies.js";

/** The comment on the issue when a running session parks at a ceiling, once per park. */
export async function postBudgetPark(work: SessionWork, ledger: Ledger): Promise<void> {
  const s = ledger.state;
  const park = s.budget.parked;
  if (!park) return;
  work.deps.metrics?.budgetParked(park.scope);
  const text = [
    `⏸ Patchgate paused this session: ${budgetParkWords(park)} this month (UTC).`,
    "",
    "Someone with write access can raise the ceiling for this session with `/agent budget +<usd>` (for example `/agent budget +5`); it then goes on. `/agent budget` shows the spend; `/agent stop` cancels.",
  ].join("\n");
  await postComment(work, s.task.source.issueNumber ?? 0, ledger.sessionId, `budget-parked-${s.eventCount}`, text);
}

import { formatUsd } from "../../safety/markdown.js";
import type { Ledger } from "../../store/ledger.js";
import type { JobContext } from "../deps.js";
import { answer } from "../outbound/replies.js";
import { tenantSpend } from "./budget-gate.js";
import { approver } from "./decisions.js";
import { drive } from "./drive.js";
import { loadRepoConfig, sessionRepoConfig } from "./repo-config.js";
import type { MonthlyCeiling, Spend } from "../../policy/spend-ceiling.js";

/** `/agent budget`: this month's spend of the installation and the repository against their ceilings, and this session's raises. */
export async function showBudget(jc: JobContext, ledger: Ledger | null, reply: number): Promise<void> {
  const { repo } = jc.delivery;
  const config = ledger ? sessionRepoConfig(ledger.state) : await loadRepoConfig(jc.readConfig).then((c) => (c.ok ? c.config : null));
  const t = await tenantSpend(jc.deps, { installationId: repo.installationId, repoId: repo.id }, config?.limits ?? {}, new Date());
  const raised = ledger?.state.budget.raisedUsd ?? 0;
  const text = !t
    ? "No monthly ceiling applies here: the operator set no budget for this installation or repository."
    : [
        `Spend on model calls since ${t.month.slice(0, 10)} (UTC), each recorded call counted once:`,
        "",
        `- this installation: ${spendLine(t.spent.installation, t.ceilings.installation)}`,
        `- this repository: ${spendLine(t.spent.repository, t.ceilings.repository)}`,
        ...(t.ceilings.requesterDailySessions === undefined ? [] : [`- sessions one person may start here per UTC day: ${t.ceilings.requesterDailySessions}`]),
        ...(raised > 0 ? ["", `This session's ceilings are raised by ${formatUsd(raised)}.`] : []),
      ].join("\n");
  await answer(jc, reply, ledger?.sessionId ?? null, "budget", text);
}

/**
 * `/agent budget +<usd>` by someone with write access: recorded in the ledger (who, how much), so the
 * check run and the receipt show it; a session parked by its budget goes on at once.
 */
export async function raiseBudget(jc: JobContext, ledger: Ledger, usd: number, reply: number): Promise<void> {
  const by = approver(jc, "comment");
  const parked = ledger.state.phase === "awaiting_budget";
  await ledger.append({ type: "budget_raised", usd, by });
  jc.deps.log(`budget raised by ${formatUsd(usd)} for session ${ledger.sessionId} by @${by.login}`);
  const total = formatUsd(ledger.state.budget.raisedUsd);
  await answer(
    jc,
    reply,
    ledger.sessionId,
    "budget",
    `@${by.login} raised this session's budget by ${formatUsd(usd)} (${total} in all).${parked ? " It goes on." : ""}`,
  );
  if (parked) await drive(jc, ledger, `budget raised by @${by.login}`);
}

function spendLine(spent: Spend, ceiling: MonthlyCeiling): string {
  const usd = `${formatUsd(spent.usd)}${ceiling.usd === undefined ? "" : ` of ${formatUsd(ceiling.usd)}`}`;
  const tokens = `${spent.tokens} tokens${ceiling.tokens === undefined ? "" : ` of ${ceiling.tokens}`}`;
  const unpriced = spent.unpricedCalls > 0 ? ` (${spent.unpricedCalls} of ${spent.calls} calls had no known price: in tokens only)` : "";
  return `${usd}, ${tokens}, ${spent.calls} calls${unpriced}`;
}

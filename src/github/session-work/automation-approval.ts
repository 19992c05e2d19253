import { approvePlan } from "../../agent/approvals.js";
import { REPO_CONFIG_PATH } from "../../config/repo-config.js";
import { automationLogin } from "../../session/automation-approval.js";
import type { SessionState } from "../../session/state.js";
import type { Approver } from "../../session/types.js";
import type { Ledger } from "../../store/ledger.js";
import type { SessionWork } from "../deps.js";

/**
 * `approve_plan: auto`: the automation that started the session approves its plan once it is
 * published, in words that name the automation, the file at the commit it was read from, and who
 * last changed that file — never as if that person had approved. Only the plan: the reducer refuses
 * an automation's approval of anything else (session/automation-approval.ts).
 */
export function automationApprover(s: Pick<SessionState, "task">): Approver | null {
  const a = s.task.source.automation;
  if (!a?.approvePlan) return null;
  const changer = a.lastChangedBy ? `@${a.lastChangedBy}` : "a commit GitHub links to no account";
  return {
    login: automationLogin(a.name),
    via: "automation",
    source: `automation:${a.name}@${a.configCommit}`,
    how: `automation ${a.name} in ${REPO_CONFIG_PATH}@${a.configCommit}, last changed by ${changer}`,
  };
}

/** Approves the waiting plan when the session's automation may; whether it did. */
export async function approvePlanByAutomation(work: Pick<SessionWork, "deps">, ledger: Ledger): Promise<boolean> {
  const by = automationApprover(ledger.state);
  const hash = ledger.state.planHash;
  if (!by || ledger.state.phase !== "awaiting_plan_approval" || hash === null) return false;
  await approvePlan(ledger, by, hash);
  work.deps.log(`plan ${hash.slice(0, 12)} approved by ${by.how}`);
  return true;
}

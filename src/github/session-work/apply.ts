import type { Ledger } from "../../store/ledger.js";
import type { JobContext } from "../deps.js";
import { answer } from "../outbound/replies.js";
import { abortInFlight, requestStop, retry, status } from "./control.js";
import {
  answerWith,
  approveAllWrites,
  approvePlanAs,
  approver,
  decideGrant,
  decideIntegrity,
  decideWrites,
  digestOf,
  grantDigestOf,
  integrityDigestOf,
  planHashOf,
  revise,
  type Where,
} from "./decisions.js";
import { reviewFollowUp } from "./review-followup.js";
import type { SessionCommand } from "./route.js";
import { startSession } from "./start.js";
import { startByAutomation } from "./automation-start.js";
import { ciFollowUp } from "./ci-followup.js";
import { raiseBudget, showBudget } from "./budget-commands.js";

/**
 * Carries out the one command ./route.ts chose for a delivery: the only place a delivery's job
 * reaches a session's drive. `session` is the issue's session as the job read it, once.
 */
export interface Target {
  issue: number;
  /** Where answers go: the thread the words were written in (the issue, for a check run's button). */
  reply: number;
  session: Ledger | null;
}

export async function apply(jc: JobContext, command: SessionCommand, t: Target): Promise<void> {
  const { issue, reply, session } = t;
  const w: Where = { reply };
  switch (command.kind) {
    case "ignore":
      return jc.deps.log(`${jc.delivery.source} not acted on (${command.why})`);
    case "tell":
      return answer(jc, reply, session?.sessionId ?? null, command.tag, command.text);
    case "busy":
      return answer(
        jc,
        issue,
        session?.sessionId ?? null,
        "busy",
        `A Patchgate session is already working on this (phase \`${command.phase}\`). \`/agent status\` shows where it stands; \`/agent stop\` cancels it.`,
      );
    case "start":
      return startSession(jc, session, { issue, ...command.start });
    case "automation":
      return startByAutomation(jc, session, command.event);
    case "status":
      return status(jc, session, reply);
    case "stop":
      if (session) return requestStop(jc, issue, session);
      abortInFlight(jc, issue);
      return status(jc, null, reply);
    case "retry":
      return retry(jc, session, reply);
    case "showBudget":
      return showBudget(jc, session, reply);
  }
  const ledger = need(session, command.kind);
  switch (command.kind) {
    case "answer":
      return answerWith(jc, ledger, command.text, command.at);
    case "approvePlan":
      return approvePlanAs(jc, ledger, approver(jc, command.via), await planHashOf(jc, ledger, command.hash), w);
    case "decideBatch":
      return decideWrites(jc, ledger, approver(jc, "comment"), await digestOf(jc, ledger, command.digest), command.deny ?? null, w, command.executableConfig);
    case "decideIntegrity":
      return decideIntegrity(jc, ledger, approver(jc, command.via), await integrityDigestOf(jc, ledger, command.digest), command.deny ?? null, w);
    case "decideGrant":
      return decideGrant(jc, ledger, approver(jc, command.via), await grantDigestOf(jc, ledger, command.digest), command.deny ?? null, w);
    case "approveAllWrites":
      return approveAllWrites(jc, ledger, command.at, command.resume, w);
    case "revise":
      return revise(jc, ledger, approver(jc, command.via), command.feedback);
    case "ciFollowUp":
      return ciFollowUp(jc, ledger, command.failure, issue);
    case "reviewFollowUp":
      return reviewFollowUp(jc, ledger, command.review, issue);
    case "raiseBudget":
      return raiseBudget(jc, ledger, command.usd, reply);
  }
}

/** ./route.ts gives these commands only for an existing session. */
function need(session: Ledger | null, kind: string): Ledger {
  if (session === null) throw new Error(`${kind} needs a session, and the issue has none`);
  return session;
}

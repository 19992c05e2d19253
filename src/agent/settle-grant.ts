import { fail, ok } from "../tools/tool.js";
import { recordAnswer } from "./call-handler.js";
import type { CallEnv } from "./call-env.js";
import { lastTurn } from "./turn.js";

/**
 * Answers the request_grant call a decided grant request held: the decision goes back to the model as
 * the call's result, an approval saying what it may now use and for how long (this session only), a
 * denial with the human's reason. Nothing to do once the call has its answer.
 */
export async function settleGrant(env: CallEnv): Promise<void> {
  const s = env.ledger.state;
  const req = s.grantRequest;
  if (!req || req.status === "pending" || !s.openCalls.some((c) => c.id === req.callId)) return;
  const call = lastTurn(s.conversation).find((c) => c.id === req.callId);
  const version = env.tools.find((t) => t.name === "request_grant")?.version ?? "unknown";
  const input = call ? parsed(call.arguments) : null;
  const who = req.decidedBy ? `@${req.decidedBy.login}` : "a maintainer";
  const { kind, target } = req.request;
  const result =
    req.status === "denied"
      ? fail("grant_denied", `${who} denied ${kind} ${target}: ${req.reason ?? "no reason given"}. Do the task without it, or report_blocked.`)
      : ok({ granted: { kind, target }, by: who, until: "the end of this session", note: GRANTED[kind](target) });
  await recordAnswer(env, req.callId, "request_grant", version, input, result);
}

const GRANTED = {
  host: (t: string) => `Test runs and commands from now on reach ${t} (and only the hosts granted), through the egress proxy.`,
  budget: (t: string) => `The session's cost budget is ${t} US dollars larger.`,
  time: (t: string) => `Test runs and commands may now take up to ${t} s each.`,
} as const;

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

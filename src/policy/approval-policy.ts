import type { PermissionMode } from "../session/types.js";
import { planGateDenial } from "./plan-gate.js";
import { evaluateCommand } from "./shell/command-verdict.js";
import { DEFAULT_VERDICT, fromRules, strictest } from "./verdicts.js";
import { matchesRequest } from "./rule-match.js";
import type { ActionRequest, PolicyDecision, PolicyRule } from "./types.js";

/**
 * Gate 3 (DESIGN §3): `evaluate` is the one place that decides allow / ask / deny. It is pure: same
 * request, rules and mode → same decision, with the id of the rule that decided, so the ledger can say
 * why. Among everything that applies the strictest wins; when nothing applies a human decides.
 */

export interface PolicyContext {
  workspaceRoot: string;
}

export function evaluate(request: ActionRequest, rules: PolicyRule[], mode: PermissionMode, ctx: PolicyContext): PolicyDecision {
  const planGate = planGateDenial(request, mode);
  if (planGate) return planGate;
  if (request.kind === "mcp") return evaluateMcp(request, rules, mode);
  if (request.kind === "command") return evaluateCommand(request, rules, mode, ctx);
  if (request.kind === "write" && request.from !== undefined) return evaluateMove(request, rules, mode);
  return byRules(request, rules, mode);
}

function byRules(request: ActionRequest, rules: PolicyRule[], mode: PermissionMode): PolicyDecision {
  return strictest(fromRules(rules.filter((r) => matchesRequest(r, request, mode)))) ?? DEFAULT_VERDICT;
}

/**
 * A move is a write to where the file goes and to where it was: a move into a protected path and a move
 * out of one are each what a write there is. Each end is judged as a plain write; the stricter wins, and on
 * a tie the source's rule names the decision (a deny names the path that denied it first).
 */
function evaluateMove(request: Extract<ActionRequest, { kind: "write" }>, rules: PolicyRule[], mode: PermissionMode): PolicyDecision {
  const { from, ...to } = request;
  const source = byRules({ ...to, path: from! }, rules, mode);
  const target = byRules(to, rules, mode);
  return strictest([source, target]) === target ? target : source;
}

/**
 * An MCP call: its rules, then the plan gate's refusal of anything but an allowed read while planning
 * (no approval exists before the plan's, and planning is read-only). The reason carries the risk class's
 * evidence, so the ledger says why.
 */
function evaluateMcp(request: Extract<ActionRequest, { kind: "mcp" }>, rules: PolicyRule[], mode: PermissionMode): PolicyDecision {
  const v = strictest(fromRules(rules.filter((r) => matchesRequest(r, request, mode)))) ?? DEFAULT_VERDICT;
  const reason = `risk ${request.risk} (${request.reasons.join("; ")}); server ${request.server} is ${request.trust}`;
  // Planning is read-only: an operator's allow of a write does not reach into it.
  const planGate = planGateDenial(request, mode, v);
  if (planGate) return { ...planGate, reason: `${reason}; ${planGate.reason}` };
  return { ...v, reason };
}

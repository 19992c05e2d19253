import type { PermissionMode } from "../session/types.js";
import { BUILTIN_RULE } from "./builtin-rules.js";
import { evaluateCommand } from "./command-verdict.js";
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
  if (mode === "plan" && (request.kind === "write" || request.kind === "command")) {
    return { decision: "deny", rule: BUILTIN_RULE.PLAN_GATE };
  }
  if (request.kind === "command") return evaluateCommand(request, rules, mode, ctx);
  return strictest(fromRules(rules.filter((r) => matchesRequest(r, request, mode)))) ?? DEFAULT_VERDICT;
}

import type { PermissionMode, ToolError } from "../session/types.js";
import { BUILTIN_RULE } from "./builtin-rules.js";
import type { ActionRequest, PolicyDecision } from "./types.js";

/**
 * Gate 1 (DESIGN §3), the plan gate, in one place: until a human approves the plan the session only
 * reads. It holds at three points, each a function here:
 * - `offeredIn`: which tools the model is offered in a mode (the loop);
 * - `checkPlanGate`: every call, since a model can still name a tool it saw earlier or make one up
 *   (the call handler);
 * - `planGateDenial`: the policy's verdict, so that a tool that declared a wrong mode still cannot
 *   write, run a command or call an MCP tool that is not an allowed read while planning (evaluate).
 */
type Moded = { modes: readonly PermissionMode[] };

export function offeredIn<T extends Moded>(tools: readonly T[], mode: PermissionMode): T[] {
  return tools.filter((t) => t.modes.includes(mode));
}

export function checkPlanGate(tool: { name: string } & Moded, mode: PermissionMode): ToolError | null {
  if (tool.modes.includes(mode)) return null;
  if (mode === "plan") {
    return {
      code: "plan_not_approved",
      message:
        `${tool.name} is not available while planning: the plan has not been approved yet. ` +
        "Finish investigating with read-only tools, call submit_plan, and wait for a maintainer to approve it.",
      details: { tool: tool.name, mode },
    };
  }
  // execute mode and a plan-only tool (e.g. submit_plan): planning is over, not a permission problem.
  return {
    code: "tool_unavailable",
    message: `${tool.name} is only available while planning; the plan is already approved. Carry on with the approved plan.`,
    details: { tool: tool.name, mode },
  };
}

/**
 * The policy's backstop: while planning, a write or a command is denied whatever the rules say, and
 * an MCP call runs only if the rules allow it (`verdict`) and it is a read. Null: the gate has no say.
 */
export function planGateDenial(request: ActionRequest, mode: PermissionMode, verdict?: PolicyDecision): PolicyDecision | null {
  if (mode !== "plan") return null;
  if (request.kind === "write" || request.kind === "command") return { decision: "deny", rule: BUILTIN_RULE.PLAN_GATE };
  if (request.kind === "mcp" && verdict && (verdict.decision !== "allow" || request.risk !== "read")) {
    return { decision: "deny", rule: BUILTIN_RULE.PLAN_GATE, reason: `while planning only allowed MCP reads run (${verdict.rule} would ${verdict.decision})` };
  }
  return null;
}

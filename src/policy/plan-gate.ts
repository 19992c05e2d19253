import type { PermissionMode, ToolError } from "../session/types.js";

/**
 * Gate 1 (DESIGN §3): a tool exists only in the modes it declares. The loop offers the model only the
 * current mode's tools, but a model can still name one it saw earlier (or hallucinate one), so every
 * call is checked here as well.
 */
export function checkPlanGate(tool: { name: string; modes: readonly PermissionMode[] }, mode: PermissionMode): ToolError | null {
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

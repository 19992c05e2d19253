import { ok } from "./tool.js";
import { defineTool } from "./define-tool.js";
import { planCalls } from "./plan-tool.js";

const DESCRIPTION = `Save or revise your working plan while you investigate. Nothing is sent for approval yet; call submit_plan when the plan is ready.
- Replaces the previous plan entirely.`;

export const updatePlanTool = defineTool({
  name: "update_plan",
  version: "1",
  description: DESCRIPTION,
  effect: { risk: "meta", mutatesWorkspace: false, idempotent: true },
  modes: ["plan"],
  ...planCalls((plan) => ({
    result: ok({ plan, message: "Plan saved. Keep investigating, or call submit_plan when it is ready for approval." }),
    events: [{ type: "plan_updated", plan }],
  })),
});

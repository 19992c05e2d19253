import { ok } from "./tool.js";
import { definePlanTool } from "./plan-tool.js";

const DESCRIPTION = `Save or revise your working plan while you investigate. Nothing is sent for approval yet; call submit_plan when the plan is ready.
- Replaces the previous plan entirely.`;

export const updatePlanTool = definePlanTool({
  name: "update_plan",
  version: "1",
  description: DESCRIPTION,
  record: (plan) => ({
    result: ok({ plan, message: "Plan saved. Keep investigating, or call submit_plan when it is ready for approval." }),
    events: [{ type: "plan_updated", plan }],
  }),
});

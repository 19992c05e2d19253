import { defineTool, ok } from "./tool.js";
import { planInput } from "./support/plan-input.js";

const DESCRIPTION = `Save or revise your working plan while you investigate. Nothing is sent for approval yet; call submit_plan when the plan is ready.
- Replaces the previous plan entirely.`;

export const updatePlanTool = defineTool({
  name: "update_plan",
  version: "1",
  description: DESCRIPTION,
  input: planInput,
  risk: "meta",
  mutatesWorkspace: false,
  idempotent: true,
  modes: ["plan"],
  request() {
    return { kind: "meta", tool: "update_plan" };
  },
  async execute(args) {
    const plan = { summary: args.summary, steps: args.steps };
    return {
      result: ok({ plan, message: "Plan saved. Keep investigating, or call submit_plan when it is ready for approval." }),
      events: [{ type: "plan_updated", plan }],
    };
  },
});

import type { z } from "zod";
import { planInput } from "./support/plan-input.js";
import { defineTool, type ToolDefinition, type ToolOutcome } from "./tool.js";

type Plan = z.infer<typeof planInput>;

/**
 * A tool that records the plan (update_plan, submit_plan): planning mode only, nothing on disk,
 * judged by the policy as a meta action, and the same input for both so a plan means one thing.
 * What is left to each is what recording it says and does.
 */
export function definePlanTool(spec: {
  name: string;
  version: string;
  description: string;
  record(plan: Plan): ToolOutcome;
}): ToolDefinition<typeof planInput> {
  return defineTool({
    name: spec.name,
    version: spec.version,
    description: spec.description,
    input: planInput,
    risk: "meta",
    mutatesWorkspace: false,
    idempotent: true,
    modes: ["plan"],
    request() {
      return { kind: "meta", tool: spec.name };
    },
    async execute(args) {
      return spec.record({ summary: args.summary, steps: args.steps });
    },
  });
}

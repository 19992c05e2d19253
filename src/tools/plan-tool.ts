import type { z } from "zod";
import { planInput } from "./support/plan-input.js";
import type { ToolDeclaration } from "./define-tool.js";
import type { ToolOutcome } from "./tool.js";

type Plan = z.infer<typeof planInput>;

/**
 * What the tools that record the plan (update_plan, submit_plan) share: the same input, so a plan
 * means one thing, and a meta action for the policy. What is left to each is what recording it says and does.
 */
export function planCalls(record: (plan: Plan) => ToolOutcome): Pick<ToolDeclaration<typeof planInput>, "input" | "request" | "execute"> {
  return {
    input: planInput,
    request: () => ({ kind: "meta" }),
    execute: async (args) => record({ summary: args.summary, steps: args.steps }),
  };
}

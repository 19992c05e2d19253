import { z } from "zod";

/** The plan as the model writes it; shared by update_plan and submit_plan so both mean the same thing. */
export const planInput = z.strictObject({
  summary: z.string().trim().min(1).describe("What will change and why, in a few sentences a maintainer can approve."),
  steps: z
    .array(z.string().trim().min(1).describe("One concrete step: which file(s) change and how, or which check runs."))
    .min(1)
    .describe("Ordered implementation steps, including how the change will be tested."),
});

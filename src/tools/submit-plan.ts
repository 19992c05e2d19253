import { ok } from "./tool.js";
import { defineTool } from "./define-tool.js";
import { planCalls } from "./plan-tool.js";
import { planHash } from "./support/plan-hash.js";

const DESCRIPTION = `Submit your plan to the maintainers for approval. Planning ends here: after this call, stop and wait.
- A maintainer approves the plan (then file changes become possible) or asks for a revision (you will get the feedback).
- Write the plan for a human: what changes, where, and how it will be tested.`;

export const submitPlanTool = defineTool({
  name: "submit_plan",
  version: "1",
  description: DESCRIPTION,
  effect: { risk: "meta", mutatesWorkspace: false, idempotent: true },
  modes: ["plan"],
  ...planCalls((plan) => {
    const hash = planHash(plan);
    const message =
      "Plan submitted for approval. Do not call any more tools now: wait until a maintainer approves it " +
      "(you will then be able to change files) or sends feedback for a revision.";
    return { result: ok({ hash, message }), events: [{ type: "plan_submitted", plan, hash }] };
  }),
});

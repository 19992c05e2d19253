import { createHash } from "node:crypto";
import { planHash } from "../../src/tools/support/plan-hash.js";
import { submitPlanTool } from "../../src/tools/submit-plan.js";
import { updatePlanTool } from "../../src/tools/update-plan.js";
import { harnessFactory } from "./helpers/harness-factory.js";

describe("update_plan / submit_plan", () => {
  const make = harnessFactory();
  const PLAN = { summary: "Fix add", steps: ["change src/add.js", "run tests"] };

  test("update_plan emits plan_updated and the state holds the plan", async () => {
    const h = await make({}, { mode: "plan" });
    const { result, events } = await h.call(updatePlanTool, PLAN);
    expect(result).toEqual({ ok: true, data: { plan: PLAN, message: "Plan saved. Keep investigating, or call submit_plan when it is ready for approval." } });
    expect(events).toEqual([{ type: "plan_updated", plan: PLAN }]);
    expect([h.state.plan, h.state.phase]).toEqual([PLAN, "planning"]);
  });

  test("submit_plan emits plan_submitted with the plan's hash and tells the model to wait", async () => {
    const h = await make({}, { mode: "plan" });
    const { result, events } = await h.call(submitPlanTool, PLAN);
    const hash = planHash(PLAN);
    expect(events).toEqual([{ type: "plan_submitted", plan: PLAN, hash }]);
    expect(result.ok && (result.data as { hash: string }).hash).toBe(hash);
    expect(result.ok && (result.data as { message: string }).message).toMatch(/^Plan submitted for approval\. Do not call any more tools now/);
    expect([h.state.phase, h.state.planHash]).toEqual(["awaiting_plan_approval", hash]);
  });

  test("the plan hash is sha256 of the canonical JSON", () => {
    const expected = createHash("sha256").update('{"steps":["change src/add.js","run tests"],"summary":"Fix add"}').digest("hex");
    expect(planHash(PLAN)).toBe(expected);
  });

  test("the plan hash does not depend on key order", () => {
    expect(planHash({ steps: [...PLAN.steps], summary: PLAN.summary })).toBe(planHash(PLAN));
  });

  test("the plan hash changes when a step changes, or steps are reordered", () => {
    expect(planHash({ ...PLAN, steps: ["change src/add.js", "run the tests"] })).not.toBe(planHash(PLAN));
    expect(planHash({ ...PLAN, steps: [...PLAN.steps].reverse() })).not.toBe(planHash(PLAN));
  });

  test("surrounding whitespace is trimmed before hashing, so a resubmission with a stray newline is the same plan", async () => {
    const h = await make({}, { mode: "plan" });
    const { events } = await h.call(submitPlanTool, { summary: "Fix add\n", steps: [" change src/add.js", "run tests "] });
    expect(events).toEqual([{ type: "plan_submitted", plan: PLAN, hash: planHash(PLAN) }]);
  });

  test("both are meta tools of plan mode only", () => {
    for (const t of [updatePlanTool, submitPlanTool]) {
      expect([t.risk, t.modes, t.request({ summary: "s", steps: ["x"] }, undefined as never)]).toEqual(["meta", ["plan"], { kind: "meta", tool: t.name }]);
    }
  });

  test("an empty step list is a schema error", () => {
    expect(submitPlanTool.input.safeParse({ summary: "s", steps: [] }).success).toBe(false);
  });
});

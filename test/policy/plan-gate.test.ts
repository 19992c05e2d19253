import { checkPlanGate } from "../../src/policy/plan-gate.js";

const readFile = { name: "read_file", modes: ["plan", "execute"] as const };
const writeFile = { name: "write_file", modes: ["execute"] as const };
const submitPlan = { name: "submit_plan", modes: ["plan"] as const };

test("read tool is available in plan mode", () => {
  expect(checkPlanGate({ ...readFile, modes: [...readFile.modes] }, "plan")).toBeNull();
});

test("write tool in plan mode is refused with plan_not_approved", () => {
  const err = checkPlanGate({ ...writeFile, modes: [...writeFile.modes] }, "plan");
  expect(err?.code).toBe("plan_not_approved");
  expect(err?.message).toMatch(/submit_plan/);
  expect(err?.message).toMatch(/approve/);
});

test("write tool in execute mode is allowed", () => {
  expect(checkPlanGate({ ...writeFile, modes: [...writeFile.modes] }, "execute")).toBeNull();
});

test("plan-only tool in execute mode is tool_unavailable", () => {
  const err = checkPlanGate({ ...submitPlan, modes: [...submitPlan.modes] }, "execute");
  expect(err?.code).toBe("tool_unavailable");
  expect(err?.message).toMatch(/submit_plan/);
});

test("plan-only tool in plan mode is available", () => {
  expect(checkPlanGate({ ...submitPlan, modes: [...submitPlan.modes] }, "plan")).toBeNull();
});

import { checkPlanGate, offeredIn, planGateDenial } from "../../src/policy/plan-gate.js";
import type { ActionRequest } from "../../src/policy/types.js";

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

test("offeredIn: the tools the model is offered are the mode's, and nothing else", () => {
  expect(offeredIn([readFile, writeFile, submitPlan], "plan").map((t) => t.name)).toEqual(["read_file", "submit_plan"]);
  expect(offeredIn([readFile, writeFile, submitPlan], "execute").map((t) => t.name)).toEqual(["read_file", "write_file"]);
});

describe("planGateDenial: the policy's backstop while planning", () => {
  const write: ActionRequest = { kind: "write", tool: "write_file", path: "a.js" };
  const command: ActionRequest = { kind: "command", tool: "run_command", argv: ["ls"] };
  const read: ActionRequest = { kind: "read", tool: "read_file", path: "a.js" };
  const mcp = (risk: "read" | "write"): ActionRequest => ({
    kind: "mcp",
    tool: "mcp__t__x",
    server: "t",
    serverTool: "x",
    trust: "trusted",
    risk,
    reasons: [],
  });
  const allow = { decision: "allow" as const, rule: "operator-allow" };

  test("a write or a command is denied whatever a rule says; a read is not the gate's business", () => {
    expect(planGateDenial(write, "plan")).toEqual({ decision: "deny", rule: "plan-gate" });
    expect(planGateDenial(command, "plan")).toEqual({ decision: "deny", rule: "plan-gate" });
    expect(planGateDenial(read, "plan")).toBeNull();
    expect(planGateDenial(write, "execute")).toBeNull();
  });

  test("an MCP call runs while planning only as an allowed read", () => {
    expect(planGateDenial(mcp("read"), "plan", allow)).toBeNull();
    expect(planGateDenial(mcp("write"), "plan", allow)).toMatchObject({ decision: "deny", rule: "plan-gate" });
    expect(planGateDenial(mcp("read"), "plan", { decision: "ask", rule: "default" })?.reason).toBe(
      "while planning only allowed MCP reads run (default would ask)",
    );
    expect(planGateDenial(mcp("write"), "execute", allow)).toBeNull();
  });
});

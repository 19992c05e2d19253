import { evaluate } from "../../src/policy/approval-policy.js";
import { BUILTIN_RULE } from "../../src/policy/builtin-rules.js";
import { applyStandingAnswers } from "../../src/policy/standing-answers.js";
import { defaultRules } from "../../src/policy/default-rules.js";
import { MCP_RULE, mcpOperatorAllowId, mcpOperatorDenyId, mcpRules } from "../../src/policy/mcp-rules.js";
import type { ActionRequest, McpRisk, McpTrust } from "../../src/policy/types.js";

const ctx = { workspaceRoot: "/ws" };
const req = (trust: McpTrust, risk: McpRisk, serverTool = "tool", server = "srv"): ActionRequest => ({
  kind: "mcp",
  tool: `mcp__${server}__${serverTool}`,
  server,
  serverTool,
  trust,
  risk,
  reasons: ["because"],
});
const rules = (allow: string[] = [], deny: string[] = []) => [...defaultRules(), ...mcpRules([{ name: "srv", allow_tools: allow, deny_tools: deny }])];
const decide = (r: ActionRequest, rs = rules(), mode: "plan" | "execute" = "execute") => {
  const d = evaluate(r, rs, mode, ctx);
  return [d.decision, d.rule];
};

describe("MCP decisions: defaults", () => {
  test.each([
    ["trusted", "read", "allow", MCP_RULE.ALLOW_READ_TRUSTED],
    ["reviewed", "read", "ask", BUILTIN_RULE.DEFAULT_ASK],
    ["untrusted", "read", "ask", BUILTIN_RULE.DEFAULT_ASK],
    ["trusted", "write", "ask", BUILTIN_RULE.DEFAULT_ASK],
    ["untrusted", "network", "ask", BUILTIN_RULE.DEFAULT_ASK],
    ["trusted", "unknown", "ask", BUILTIN_RULE.DEFAULT_ASK],
    ["trusted", "destructive", "ask", BUILTIN_RULE.DEFAULT_ASK],
    ["reviewed", "destructive", "ask", BUILTIN_RULE.DEFAULT_ASK],
    ["untrusted", "destructive", "deny", MCP_RULE.DENY_DESTRUCTIVE_UNTRUSTED],
  ] as const)("%s server, %s tool → %s (%s)", (trust, risk, decision, rule) => {
    expect(decide(req(trust, risk))).toEqual([decision, rule]);
  });

  test("the reason carries the classifier's evidence and the server's trust", () => {
    expect(evaluate(req("untrusted", "destructive"), rules(), "execute", ctx).reason).toBe("risk destructive (because); server srv is untrusted");
  });
});

describe("MCP decisions: the operator's rules", () => {
  test("allow_tools turns an ask into an allow, on that server only", () => {
    expect(decide(req("untrusted", "write", "create_x"), rules(["create_*"]))).toEqual(["allow", mcpOperatorAllowId("srv", "create_*")]);
    expect(decide(req("untrusted", "write", "create_x", "other"), rules(["create_*"]))).toEqual(["ask", BUILTIN_RULE.DEFAULT_ASK]);
  });

  test("allow_tools never loosens the deny of a destructive tool on an untrusted server", () => {
    expect(decide(req("untrusted", "destructive", "drop_db"), rules(["*"]))).toEqual(["deny", MCP_RULE.DENY_DESTRUCTIVE_UNTRUSTED]);
  });

  test("deny_tools denies even a trusted read, and matches case-insensitively", () => {
    expect(decide(req("trusted", "read", "Get_Secret"), rules([], ["get_secret"]))).toEqual(["deny", mcpOperatorDenyId("srv", "get_secret")]);
  });

  test("an allow pattern matches exactly (case counts)", () => {
    expect(decide(req("reviewed", "write", "Create_x"), rules(["create_*"]))).toEqual(["ask", BUILTIN_RULE.DEFAULT_ASK]);
  });
});

describe("MCP decisions nobody can answer", () => {
  test("while planning, only an allowed MCP call runs; an ask becomes a plan-gate deny", () => {
    expect(decide(req("trusted", "read"), rules(), "plan")).toEqual(["allow", MCP_RULE.ALLOW_READ_TRUSTED]);
    expect(decide(req("untrusted", "read"), rules(), "plan")).toEqual(["deny", BUILTIN_RULE.PLAN_GATE]);
    // Planning is read-only even for what the operator allows.
    expect(decide(req("untrusted", "write", "create_x"), rules(["create_*"]), "plan")).toEqual(["deny", BUILTIN_RULE.PLAN_GATE]);
  });

  test("non-interactive (no human for MCP asks): ask → deny through the standing answers, allow and deny unchanged", () => {
    const standing = (r: ActionRequest) => applyStandingAnswers(evaluate(r, rules(), "execute", ctx), r, { autoApproveWrites: true, unattended: true });
    expect(standing(req("reviewed", "write"))).toMatchObject({ decision: "deny", rule: BUILTIN_RULE.UNATTENDED });
    expect(standing(req("trusted", "read"))).toMatchObject({ decision: "allow", rule: MCP_RULE.ALLOW_READ_TRUSTED });
    expect(standing(req("untrusted", "destructive"))).toMatchObject({ decision: "deny", rule: MCP_RULE.DENY_DESTRUCTIVE_UNTRUSTED });
  });

  test("the label that approves every write does not approve an MCP call", () => {
    const r = req("reviewed", "write");
    expect(applyStandingAnswers(evaluate(r, rules(), "execute", ctx), r, { autoApproveWrites: true, unattended: false })).toMatchObject({ decision: "ask" });
  });

  test("MCP rules never match built-in requests, and built-in rules never match MCP requests", () => {
    expect(evaluate({ kind: "read", tool: "read_file", path: "a" }, mcpRules([{ name: "srv", allow_tools: ["*"], deny_tools: [] }]), "execute", ctx).rule).toBe(
      BUILTIN_RULE.DEFAULT_ASK,
    );
    expect(decide(req("reviewed", "read"), defaultRules())).toEqual(["ask", BUILTIN_RULE.DEFAULT_ASK]);
  });
});

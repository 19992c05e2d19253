import { applyStandingAnswers } from "../../src/policy/standing-answers.js";
import { BUILTIN_RULE } from "../../src/policy/builtin-rules.js";
import { type ActionRequest, type PolicyDecision } from "../../src/policy/types.js";

const write: ActionRequest = { kind: "write", tool: "write_file", path: "src/a.ts" };
const command: ActionRequest = { kind: "command", tool: "run_command", argv: ["make"] };
const ask: PolicyDecision = { decision: "ask", rule: "ask:write" };
const none = { autoApproveWrites: false, unattended: false };

describe("standing answers", () => {
  test("nothing standing: the verdict is unchanged", () => {
    expect(applyStandingAnswers(ask, write, none)).toBe(ask);
  });
  test(`${BUILTIN_RULE.WRITES_APPROVED}: all writes approved allows an asked write, never a command`, () => {
    expect(applyStandingAnswers(ask, write, { ...none, autoApproveWrites: true })).toEqual({ decision: "allow", rule: BUILTIN_RULE.WRITES_APPROVED });
    expect(applyStandingAnswers(ask, command, { ...none, autoApproveWrites: true })).toBe(ask);
  });
  test(`${BUILTIN_RULE.UNATTENDED}: unattended refuses what would ask, naming the rule that asked`, () => {
    expect(applyStandingAnswers(ask, command, { ...none, unattended: true })).toEqual({
      decision: "deny",
      rule: BUILTIN_RULE.UNATTENDED,
      reason: "it needs a maintainer's approval (ask:write) and this session runs unattended, so nobody can give it",
    });
  });
  test("unattended with all writes approved: the write goes ahead, the command is refused", () => {
    const both = { autoApproveWrites: true, unattended: true };
    expect(applyStandingAnswers(ask, write, both).decision).toBe("allow");
    expect(applyStandingAnswers(ask, command, both).decision).toBe("deny");
  });
  test("allow and deny are never changed", () => {
    const allow: PolicyDecision = { decision: "allow", rule: "allow:read" };
    const deny: PolicyDecision = { decision: "deny", rule: "deny:git-push" };
    expect(applyStandingAnswers(allow, command, { autoApproveWrites: true, unattended: true })).toBe(allow);
    expect(applyStandingAnswers(deny, write, { autoApproveWrites: true, unattended: true })).toBe(deny);
  });
});

import { evaluate } from "../../src/policy/approval-policy.js";
import { classifyMcpTool } from "../../src/policy/mcp-risk.js";
import { mcpRules } from "../../src/policy/mcp-rules.js";
import type { McpToolFacts } from "../../src/policy/types.js";

/**
 * A tool's name is the server's claim: a read word in it proves nothing when other words say more.
 * A name is a read only when every word in it is a read word; unknown or mixed words make a write,
 * unless the server says `readOnlyHint` and the operator trusts that server's annotations.
 */
const obj = (properties: Record<string, unknown>) => ({ type: "object", properties });
const owner = obj({ repo: { type: "string" }, new_owner: { type: "string" } });
const classify = (t: Partial<McpToolFacts> & { name: string }) => classifyMcpTool({ trust: "trusted", inputSchema: owner, ...t });

/** How a session in planning would decide the call: a read of a trusted server runs before any approval. */
function duringPlanning(t: Partial<McpToolFacts> & { name: string }) {
  const { risk, reasons } = classify(t);
  const request = { kind: "mcp" as const, tool: `mcp__srv__${t.name}`, server: "srv", serverTool: t.name, trust: t.trust ?? "trusted", risk, reasons };
  return evaluate(request, mcpRules([{ name: "srv", allow_tools: [], deny_tools: [] }]), "plan", { workspaceRoot: "/srv/ws" }).decision;
}

describe("unknown or mixed verbs are a write", () => {
  test.each([
    "lookup_and_transfer_owner", // the one seen: a read word, and words in no list
    "lookupTransferOwner", // found while probing: no conjunction, the same two actions
    "find_and_grant_admin",
    "get_weather_then_rotate_keys",
    "transfer_owner",
  ])("%s of a trusted server, unannotated: write, and it does not run while planning", (name) => {
    expect(classify({ name }).risk).toBe("write");
    expect(duringPlanning({ name })).not.toBe("allow");
  });
  test("a name whose every word is a read word is still a read", () => {
    expect(classify({ name: "search", inputSchema: obj({ q: { type: "string" } }) }).risk).toBe("read");
    expect(classify({ name: "list_status", inputSchema: obj({}) }).risk).toBe("read");
  });
  test("the reasons say which words are in no list", () => {
    expect(classify({ name: "lookup_and_transfer_owner" }).reasons).toContain('words in no list ("and", "transfer", "owner"): write');
  });
});

describe("readOnlyHint loosens only when the operator trusts the server's annotations", () => {
  const hinted = { name: "lookup_and_transfer_owner", annotations: { readOnlyHint: true } };
  test("trusted, without trust_annotations: the hint is ignored", () => {
    const r = classify(hinted);
    expect(r.risk).toBe("write");
    expect(r.reasons).toContain("readOnlyHint ignored: the operator does not trust this server's annotations (trust_annotations)");
  });
  test("trusted, with trust_annotations: read", () => {
    expect(classify({ ...hinted, trustAnnotations: true }).risk).toBe("read");
    expect(duringPlanning({ ...hinted, trustAnnotations: true })).toBe("allow");
  });
  test("destructiveHint false loosens destructive to write only with trust_annotations too", () => {
    expect(classify({ name: "delete_cache", annotations: { destructiveHint: false } }).risk).toBe("destructive");
    expect(classify({ name: "delete_cache", annotations: { destructiveHint: false }, trustAnnotations: true }).risk).toBe("write");
  });
});

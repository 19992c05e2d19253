import { renderReport } from "../../src/trace/report/report.js";
import type { SessionEvent } from "../../src/session/events.js";
import { hex, okResult, StoryLedger } from "./fixtures/story-ledger.js";

/** MCP audit events (src/mcp) in the report: Governance counts them per tool; the timeline names servers and refusals. */
const call = (stage: "denied" | "completed" | "denied_by_human" | "started", by = "policy", rule = "allow:mcp-read-trusted"): SessionEvent => ({
  type: "mcp_call",
  stage,
  callId: "call_9",
  server: "tickets",
  tool: "get_ticket",
  argsDigest: hex("args", 64),
  decision: stage === "denied" ? "deny" : "allow",
  rule,
  by,
});

test("MCP calls by tool in Governance; server events and refusals in the timeline", () => {
  const s = new StoryLedger("sess-mcp").start();
  s.add(
    { type: "mcp_server_connected", server: "tickets", transport: "stdio", trust: "trusted", serverName: "tickets", serverVersion: "1.0.0" },
    { type: "mcp_tool_dropped", server: "tickets", tool: "wipe", reason: "denied by the operator's deny_tools" },
  );
  s.read().plan(hex("p", 64));
  s.approvePlan({ login: "alice", via: "review" }, hex("p", 64));
  s.step(null, [
    {
      tool: "mcp__tickets__get_ticket",
      args: { id: 1 },
      decision: "allow",
      rule: "allow:mcp-read-trusted",
      subject: "tickets/get_ticket",
      result: okResult({ text: "ticket" }),
    },
  ]);
  s.add(call("started"), call("completed"), call("denied", "policy", "deny:mcp-destructive-untrusted"), call("completed", "alice", "default:ask"));
  s.add({ type: "mcp_server_failed", server: "tickets", stage: "running", message: "exited with code 1" });
  const out = renderReport(s.state, s.events, { sessionId: s.sessionId, format: "text" });
  expect(out.summary).toContain(
    "MCP calls\n\n- `tickets/get_ticket` — ran ×2 (approved by @alice), refused by policy ×1 · `allow:mcp-read-trusted`, `deny:mcp-destructive-untrusted`, `default:ask`",
  );
  expect(out.timeline).toContain("MCP server `tickets` connected (stdio, trusted): tickets 1.0.0");
  expect(out.timeline).toContain("MCP tool `tickets/wipe` not offered: denied by the operator's deny_tools");
  expect(out.timeline).toContain("MCP call `tickets/get_ticket` denied · `deny:mcp-destructive-untrusted`");
  expect(out.timeline).toMatch(/▸ Step 3 · [\d:]+ · called `mcp__tickets__get_ticket`; MCP server `tickets` failed/);
});

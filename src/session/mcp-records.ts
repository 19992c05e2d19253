/** What the ledger records of MCP servers and their tools: trust, risk, the tools offered, the audit of each call. */
import type { PermissionMode, Decision } from "./types.js";

/** How far the operator vouches for an MCP server (its config's `trust`). */
export type McpTrust = "trusted" | "reviewed" | "untrusted";

/** What an MCP tool may do, as local policy judges it — never as the server describes it. */
export type McpRisk = "read" | "write" | "network" | "destructive" | "unknown";

/** One MCP tool as offered to the model. */
export interface McpToolRecord {
  /** The name the model calls: `mcp__<server>__<tool>`. */
  name: string;
  /** The name on the server. */
  tool: string;
  risk: McpRisk;
  reasons: string[];
  /** `<server name>@<server version>#<schema hash>`: a change means a different tool (tools/CHANGELOG.md). */
  version: string;
  modes: PermissionMode[];
}

/**
 * One stage of one MCP call, for the audit trail (and the check run's "MCP calls"):
 * - `denied`: the policy refused it (decision `deny`), nothing was sent to the server;
 * - `awaiting_approval`: the policy said `ask`, the call waits in the pending batch;
 * - `started`: written before the request goes out, so a crash mid-call is known on resume;
 * - `completed`: the server answered (`ok` false for a tool error or a failed request);
 * - `denied_by_human`: the batch holding it was denied;
 * - `interrupted`: it had started when the process stopped; it is not sent again.
 */
export interface McpCallAudit {
  stage: "denied" | "awaiting_approval" | "started" | "completed" | "denied_by_human" | "interrupted";
  callId: string;
  server: string;
  /** The tool's name on the server. */
  tool: string;
  /** sha256 of the canonical JSON of the arguments. */
  argsDigest: string;
  decision: Decision;
  /** The rule that decided (`allow:mcp-read-trusted`, `default:ask`, `deny:mcp-destructive-untrusted`…). */
  rule: string;
  /** `policy` when no human was involved, else the login of whoever approved or denied. */
  by: string;
  /** `completed` only: how long the server took, and the size of the recorded result in bytes. */
  durationMs?: number;
  resultBytes?: number;
  ok?: boolean;
}

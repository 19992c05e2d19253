import picomatch from "picomatch";
import type { McpMatcher, PolicyRule } from "./types.js";

/**
 * MCP rules (DESIGN §3): the defaults, plus the operator's per-server `allow_tools` / `deny_tools`. No
 * rule asks explicitly: what nothing allows or denies falls to `default:ask`, so an operator's allow can
 * loosen an ask — but never the deny of a destructive tool on an untrusted server (strictest wins).
 */
export const MCP_RULE = {
  ALLOW_READ_TRUSTED: "allow:mcp-read-trusted",
  DENY_DESTRUCTIVE_UNTRUSTED: "deny:mcp-destructive-untrusted",
} as const;

export const mcpOperatorAllowId = (server: string, pattern: string) => `allow:mcp-operator:${server}:${pattern}`;
export const mcpOperatorDenyId = (server: string, pattern: string) => `deny:mcp-operator:${server}:${pattern}`;

/** What the rules need of one configured server. */
export interface McpServerRules {
  name: string;
  allow_tools: string[];
  deny_tools: string[];
}

const mcpRule = (id: string, decision: "allow" | "deny", mcp: McpMatcher, description: string): PolicyRule => ({ id, decision, kind: "mcp", mcp, description });

/** One rule per pattern an operator listed under `allow_tools` or `deny_tools` of a server. */
function operatorRules(servers: readonly McpServerRules[], decision: "allow" | "deny"): PolicyRule[] {
  const id = decision === "allow" ? mcpOperatorAllowId : mcpOperatorDenyId;
  return servers.flatMap((s) =>
    s[`${decision}_tools`].map((p) => mcpRule(id(s.name, p), decision, { servers: [s.name], tools: [p] }, `operator: ${decision}_tools`)),
  );
}

export function mcpRules(servers: readonly McpServerRules[]): PolicyRule[] {
  return [
    mcpRule(MCP_RULE.DENY_DESTRUCTIVE_UNTRUSTED, "deny", { risks: ["destructive"], trust: ["untrusted"] }, "a destructive tool of a server nobody reviewed"),
    ...operatorRules(servers, "deny"),
    mcpRule(MCP_RULE.ALLOW_READ_TRUSTED, "allow", { risks: ["read"], trust: ["trusted"] }, "a read of a server the operator trusts"),
    ...operatorRules(servers, "allow"),
  ];
}

/** A server's tool name against operator patterns; `loose` (for denials) ignores case, as paths do. */
export function toolNameMatches(name: string, patterns: readonly string[], loose: boolean): boolean {
  return patterns.length > 0 && picomatch.isMatch(name, [...patterns], { nocase: loose, dot: true });
}

export function matchesMcp(m: McpMatcher, request: { server: string; serverTool: string; risk: string; trust: string }, strict: boolean): boolean {
  if (m.servers !== undefined && !m.servers.includes(request.server)) return false;
  if (m.tools !== undefined && !toolNameMatches(request.serverTool, m.tools, !strict)) return false;
  if (m.risks !== undefined && !m.risks.includes(request.risk as never)) return false;
  if (m.trust !== undefined && !m.trust.includes(request.trust as never)) return false;
  return true;
}

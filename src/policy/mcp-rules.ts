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

export function mcpRules(servers: readonly McpServerRules[]): PolicyRule[] {
  const rules: PolicyRule[] = [
    {
      id: MCP_RULE.DENY_DESTRUCTIVE_UNTRUSTED,
      decision: "deny",
      kind: "mcp",
      mcp: { risks: ["destructive"], trust: ["untrusted"] },
      description: "a destructive tool of a server nobody reviewed",
    },
  ];
  for (const s of servers) {
    for (const p of s.deny_tools)
      rules.push({
        id: mcpOperatorDenyId(s.name, p),
        decision: "deny",
        kind: "mcp",
        mcp: { servers: [s.name], tools: [p] },
        description: "operator: deny_tools",
      });
  }
  rules.push({
    id: MCP_RULE.ALLOW_READ_TRUSTED,
    decision: "allow",
    kind: "mcp",
    mcp: { risks: ["read"], trust: ["trusted"] },
    description: "a read of a server the operator trusts",
  });
  for (const s of servers) {
    for (const p of s.allow_tools)
      rules.push({
        id: mcpOperatorAllowId(s.name, p),
        decision: "allow",
        kind: "mcp",
        mcp: { servers: [s.name], tools: [p] },
        description: "operator: allow_tools",
      });
  }
  return rules;
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

import type { Ledger } from "../store/ledger.js";
import { secretsFromEnv } from "../safety/secrets.js";
import { mcpConfigSecrets, type McpRuntime } from "./config.js";
import { McpSession } from "./session-tools.js";
import { hostEnvironment } from "../process/index.js";

/** The MCP tools of one resume, or null when the operator configured none. */
export async function openMcpForResume(ledger: Ledger, mcp: McpRuntime | undefined, workspaceRoot: string): Promise<McpSession | null> {
  if (!mcp || mcp.config.servers.length === 0) return null;
  const secrets = [...secretsFromEnv(hostEnvironment()), ...mcpConfigSecrets(mcp.config), ...(mcp.secrets ?? [])];
  return McpSession.open(ledger, { config: mcp.config, repo: ledger.state.task.source.repo, workspaceRoot, secrets });
}

/** Whether nobody can answer an MCP `ask` in this resume. */
export function mcpNonInteractive(mcp: McpRuntime | undefined): boolean {
  return mcp !== undefined && (mcp.nonInteractive === true || mcp.config.nonInteractive === "policy");
}

import type { McpRuntime } from "../mcp/index.js";
import { loadMcpConfig, McpConfigError } from "../mcp/index.js";
import { processOperatorEnv, type OperatorEnv } from "../config/operator-env.js";
import { UsageError } from "./usage-error.js";

/**
 * The operator's MCP servers for a CLI session: `--mcp-config <file>`, else PATCHGATE_MCP_CONFIG, else
 * none. A repository's own `.mcp.json` is never looked at. Without a terminal nobody can approve an MCP
 * call, so what the policy would ask about is denied.
 */
export function mcpFromCli(flag: string | undefined, interactive: boolean, env: OperatorEnv = processOperatorEnv()): McpRuntime | undefined {
  const file = flag ?? env.PATCHGATE_MCP_CONFIG;
  if (!file) return undefined;
  try {
    return { config: loadMcpConfig(file), nonInteractive: !interactive };
  } catch (e) {
    if (McpConfigError.isInstance(e)) throw new UsageError(e.message);
    throw e;
  }
}

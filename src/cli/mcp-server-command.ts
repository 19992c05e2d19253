import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { serveProject } from "../mcp/index.js";
import { parseCommandArgs } from "./cli-args.js";
import { UsageError } from "./usage-error.js";

export const MCP_SERVER_USAGE = "patchgate mcp-server --repo <path>";

/** `patchgate mcp-server`: Patchgate's read-only project tools over stdio. stdout carries the protocol only. */
export async function mcpServerCommand(argv: string[]): Promise<number> {
  const parsed = parseCommandArgs(argv, { repo: { type: "string" } } as const, MCP_SERVER_USAGE);
  if (parsed.help) {
    process.stderr.write(`usage: ${MCP_SERVER_USAGE}\n`);
    return 0;
  }
  const { repo } = parsed.values;
  if (!repo) throw new UsageError(`usage: ${MCP_SERVER_USAGE}`);
  try {
    await serveProject(repo, new StdioServerTransport());
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  return 0;
}

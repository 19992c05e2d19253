import { parseArgs } from "node:util";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { serveProject } from "../mcp/server/own-server.js";
import { UsageError } from "./runtime-env.js";

export const MCP_SERVER_USAGE = "patchgate mcp-server --repo <path>";

/** `patchgate mcp-server`: Patchgate's read-only project tools over stdio. stdout carries the protocol only. */
export async function mcpServerCommand(argv: string[]): Promise<number> {
  let repo: string | undefined;
  try {
    ({ values: { repo } } = parseArgs({ args: argv, options: { repo: { type: "string" } } }));
  } catch (e) {
    throw new UsageError(`${(e as Error).message}\nusage: ${MCP_SERVER_USAGE}`);
  }
  if (!repo) throw new UsageError(`usage: ${MCP_SERVER_USAGE}`);
  try {
    await serveProject(repo, new StdioServerTransport());
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  return 0;
}

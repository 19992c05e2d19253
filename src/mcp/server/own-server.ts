import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { resultText } from "../../session/result-text.js";
import { readFileTool } from "../../tools/read-file.js";
import { searchCodeTool } from "../../tools/search-code.js";
import type { ToolOutcome } from "../../tools/tool.js";
import { projectContext } from "./project-context.js";

/**
 * Patchgate's own MCP server (`patchgate mcp-server --repo <path>`): `read_project_file` and
 * `search_project_text` over one repository. They are the built-in read_file and search_code — the same
 * path confinement (realpath inside the root, no `..`, no absolute paths, no `.git`), limits and ignore
 * rules — so the server reads exactly what the agent may read, and cannot write.
 */

/** Part of each tool's version as clients record it (tools/CHANGELOG.md). */
export const OWN_SERVER_VERSION = "3";

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

/** The same text Patchgate's own model reads (session/result-text.ts): file lines unescaped. */
function toMcp(outcome: ToolOutcome): CallToolResult {
  const r = outcome.result;
  return { content: [{ type: "text", text: resultText(r) }], ...(r.ok ? {} : { isError: true }) };
}

function projectServer(repo: string): McpServer {
  const ctx = projectContext(repo);
  const server = new McpServer({ name: "patchgate", version: OWN_SERVER_VERSION }, { capabilities: { tools: {} } });
  server.registerTool(
    "read_project_file",
    {
      description: readFileTool.description
        .replace(/\n- Only the lines you were shown count as read.*$/m, "")
        .replace(/: leave them out of edit_file's.*$/m, "."),
      inputSchema: readFileTool.input,
      annotations: READ_ONLY,
    },
    async (args) => toMcp(await readFileTool.execute(args, ctx)),
  );
  server.registerTool(
    "search_project_text",
    { description: searchCodeTool.description, inputSchema: searchCodeTool.input, annotations: READ_ONLY },
    async (args) => toMcp(await searchCodeTool.execute(args, ctx)),
  );
  return server;
}

/** Serves until the client goes away (its end of the transport closes). */
export async function serveProject(repo: string, transport: Transport, input: NodeJS.ReadableStream = process.stdin): Promise<void> {
  const server = projectServer(repo);
  const closed = new Promise<void>((resolve) => {
    input.once("end", resolve);
    input.once("close", resolve);
    server.server.onclose = resolve;
  });
  await server.connect(transport);
  await closed;
  await server.close();
}

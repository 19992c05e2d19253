/** The mcp folder's public face: the operator's config, the tools of one resume, Patchgate's own server. */
export { loadMcpConfig, parseMcpConfig, mcpConfigSecrets, serversFor, McpConfigError, McpConfigSchema, type McpConfig, type McpServerConfig } from "./config.js";
export { openMcpForResume, mcpNonInteractive } from "./open.js";
export { McpSession, type McpSessionOptions } from "./session-tools.js";
export { isMcpName, offeredName, MCP_PREFIX } from "./tool-names.js";
export { projectServer, serveProject, OWN_SERVER_VERSION } from "./server/own-server.js";

// The face of src/mcp/: what other folders of src/ use of it, and the only file they import from it.
// Generated from their imports; regenerate it rather than editing it. A module loaded lazily (import("…"))
// is imported by its own path, not through this file, which would load it at once.
export { McpConfigError, McpConfigSchema, loadMcpConfig, parseMcpConfig } from "./config.js";
export type { McpConfig, McpRuntime } from "./config.js";
export { mcpNonInteractive, openMcpForResume } from "./open.js";
export { serveProject } from "./server/own-server.js";
export type { McpSession } from "./session-tools.js";
export { isMcpName } from "./tool-names.js";

import { createHash } from "node:crypto";
import { canonicalJson } from "../session/canonical-json.js";

/**
 * Names the model calls: `mcp__<server>__<tool>`. Server names have no `__` (config.ts) and built-in
 * tools never start with `mcp__`, so no two servers, and no server and Patchgate, can share a name.
 * Model providers accept `[A-Za-z0-9_-]{1,64}`; a tool name outside that (dots, slashes, length) gets a
 * short hash of the original, so two such names never fold into one.
 */
export const MCP_PREFIX = "mcp__";
const MAX_TOOL_NAME = 64;
const MODEL_SAFE = /^[A-Za-z0-9_-]+$/;

const sha = (text: string) => createHash("sha256").update(text).digest("hex");

export function offeredName(server: string, tool: string): string {
  const plain = `${MCP_PREFIX}${server}__${tool}`;
  if (MODEL_SAFE.test(tool) && plain.length <= MAX_TOOL_NAME) return plain;
  const suffix = `_${sha(tool).slice(0, 8)}`;
  const room = MAX_TOOL_NAME - MCP_PREFIX.length - server.length - 2 - suffix.length;
  return `${MCP_PREFIX}${server}__${tool.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, Math.max(0, room))}${suffix}`;
}

export function isMcpName(name: string): boolean {
  return name.startsWith(MCP_PREFIX);
}

/** `<server name>@<version>#<hash of name, input schema and hints>`: the tool contract a replay checks. */
export function mcpToolVersion(info: { name: string; version: string }, tool: { name: string; inputSchema: unknown; annotations?: unknown }): string {
  const hash = sha(canonicalJson({ name: tool.name, inputSchema: tool.inputSchema, annotations: tool.annotations ?? null })).slice(0, 12);
  return `${info.name}@${info.version}#${hash}`;
}

/** sha256 of the arguments' canonical JSON, for audit records that must not repeat the arguments. */
export function argsDigest(input: unknown): string {
  return sha(canonicalJson(input ?? null));
}

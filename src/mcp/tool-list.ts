import { classifyMcpTool } from "../policy/mcp-risk.js";
import { toolNameMatches } from "../policy/mcp-rules.js";
import type { McpToolFacts } from "../policy/types.js";
import type { McpTrust } from "../session/mcp-records.js";
import { sanitizeUntrusted } from "../safety/sanitize.js";
import type { ServerInfo } from "./connection.js";
import { checkInputSchema } from "./schema-check.js";
import type { McpToolSpec } from "./tool-definition.js";
import { MCP_PREFIX, offeredName, mcpToolVersion } from "./tool-names.js";

/**
 * A server's raw tool list → the tools Patchgate offers, each with its risk class, and the ones it
 * drops with the reason. Nothing a server lists can crash the session: every field is checked here.
 * Pure apart from compiling validators.
 */

export interface ListedServer {
  name: string;
  trust: McpTrust;
  trust_annotations?: boolean;
  deny_tools: string[];
}

export interface CheckedList {
  specs: McpToolSpec[];
  dropped: { tool: string; reason: string }[];
}

// eslint-disable-next-line no-control-regex -- finding control characters is what this is for
const VALID_NAME = /^[^\u0000-\u001f\u007f]{1,128}$/;

/** A tool name as it may appear in an event: whatever the server sent, made printable and short. */
function shownName(name: unknown): string {
  return sanitizeUntrusted(typeof name === "string" ? name : (JSON.stringify(name) ?? "(none)"), { maxChars: 128 }).replace(/\n/g, " ");
}

function hints(raw: unknown): McpToolFacts["annotations"] {
  if (raw === null || typeof raw !== "object") return undefined;
  const out: Record<string, boolean> = {};
  for (const k of ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"]) {
    const v = (raw as Record<string, unknown>)[k];
    if (typeof v === "boolean") out[k] = v;
  }
  return out;
}

function whyNot(server: ListedServer, t: Record<string, unknown>): string | null {
  if (typeof t.name !== "string" || !VALID_NAME.test(t.name)) return "the tool has no valid name (1–128 printable characters)";
  const deny = server.deny_tools.find((p) => toolNameMatches(t.name as string, [p], true));
  if (deny !== undefined) return `the operator's deny_tools (\`${deny}\`)`;
  const task = (t.execution as { taskSupport?: unknown } | undefined)?.taskSupport;
  if (task === "required") return "it only runs as a task, which Patchgate does not use";
  return null;
}

export function checkTools(server: ListedServer, info: ServerInfo, raw: readonly unknown[]): CheckedList {
  const specs: McpToolSpec[] = [];
  const dropped: CheckedList["dropped"] = [];
  const taken = new Set<string>();
  for (const item of raw) {
    if (item === null || typeof item !== "object" || Array.isArray(item)) {
      dropped.push({ tool: shownName(item), reason: "the list entry is not an object" });
      continue;
    }
    const t = item as Record<string, unknown>;
    const refused = whyNot(server, t);
    const checked = refused === null ? checkInputSchema(t.inputSchema) : null;
    if (refused !== null || checked === null || !checked.ok) {
      dropped.push({ tool: shownName(t.name), reason: refused ?? (checked && !checked.ok ? checked.reason : "unchecked") });
      continue;
    }
    const tool = t.name as string;
    const name = offeredName(server.name, tool);
    if (taken.has(name) || !name.startsWith(MCP_PREFIX)) {
      dropped.push({ tool: shownName(tool), reason: `its name ${name} is already taken by another tool of this server` });
      continue;
    }
    taken.add(name);
    const annotations = hints(t.annotations);
    const { risk, reasons } = classifyMcpTool({
      trust: server.trust,
      trustAnnotations: server.trust_annotations === true,
      name: tool,
      inputSchema: t.inputSchema,
      annotations,
    });
    specs.push({
      server: server.name,
      trust: server.trust,
      tool,
      name,
      description: typeof t.description === "string" ? t.description : "",
      schema: checked.schema,
      validate: checked.validate,
      risk,
      reasons,
      version: mcpToolVersion(info, { name: tool, inputSchema: t.inputSchema, annotations }),
    });
  }
  return { specs, dropped };
}

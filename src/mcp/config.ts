import { readFileSync } from "node:fs";
import path from "node:path";
import picomatch from "picomatch";
import { z } from "zod";
import { MIN_SECRET_LENGTH, secretsFromEnv } from "../safety/secrets.js";
import { FatalError } from "../errors/index.js";

/**
 * The operator's MCP servers (DESIGN §7): one JSON file on the host, named by `PATCHGATE_MCP_CONFIG` or
 * the CLI's `--mcp-config`, in the `mcpServers` shape other clients use, plus Patchgate's own fields per
 * server. Nothing here is ever read from a repository: a `.mcp.json` in a clone is just a file (and a
 * protected one). A broken file is an McpConfigError naming the field; the app refuses to start on it.
 */

/** No `__` (the separator in `mcp__<server>__<tool>`), short enough to leave the tool room in 64 characters. */
const SERVER_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9-]|_(?!_))*$/;
const MAX_SERVER_NAME = 20;

const patchgateFields = {
  trust: z
    .enum(["trusted", "reviewed", "untrusted"])
    .default("untrusted")
    .describe("trusted: reads run without asking and the server's hints count; reviewed: everything asks; untrusted (default): destructive tools are denied."),
  trust_annotations: z
    .boolean()
    .optional()
    .describe(
      "true: the server's readOnlyHint (and destructiveHint false) may loosen a tool's class; only for a `trusted` server. Absent: annotations only make tools stricter.",
    ),
  allow_tools: z.array(z.string().min(1)).default([]).describe("Globs on the server's tool names that run without asking (never past a deny)."),
  deny_tools: z.array(z.string().min(1)).default([]).describe("Globs on the server's tool names that are never offered and always refused."),
  repositories: z
    .array(z.string().min(1))
    .min(1)
    .optional()
    .describe("Globs on `owner/name` (CLI: the --repo value) of the repositories whose sessions may use this server; absent = all."),
  timeout_seconds: z.number().positive().max(3600).default(60).describe("Longest wait for one tool call (and for the server to start)."),
};

const StdioServerSchema = z
  .object({
    type: z.literal("stdio").optional(),
    command: z.string().min(1).describe("Program to start; found on PATH. `${workspace}` in command, args, env and cwd is the session's clone."),
    args: z.array(z.string()).default([]),
    env: z.record(z.string(), z.string()).default({}).describe("The server's whole environment, besides PATH: nothing else of Patchgate's is passed."),
    cwd: z.string().optional().describe("Working directory; default: the directory of this config file."),
    ...patchgateFields,
  })
  .strict();

const HttpServerSchema = z
  .object({
    type: z.enum(["http", "streamable-http"]).optional(),
    url: z.url({ protocol: /^https?$/ }).describe("Streamable HTTP endpoint, e.g. `https://host/mcp`."),
    headers: z.record(z.string(), z.string()).default({}).describe("Sent with every request (e.g. Authorization); redacted everywhere."),
    ...patchgateFields,
  })
  .strict();

/** The transport is chosen by the entry's own fields, so an error names the field that is wrong. */
const ServerSchema = z.unknown().transform((raw, ctx) => {
  const has = (k: string) => raw !== null && typeof raw === "object" && k in raw;
  if (has("command") === has("url")) {
    ctx.addIssue({ code: "custom", message: "a server needs either `command` (stdio) or `url` (streamable HTTP), not both" });
    return z.NEVER;
  }
  const parsed = (has("command") ? StdioServerSchema : HttpServerSchema).safeParse(raw);
  if (parsed.success && parsed.data.trust_annotations === true && parsed.data.trust !== "trusted") {
    ctx.addIssue({ code: "custom", path: ["trust_annotations"], message: "only a `trusted` server's annotations can be trusted" });
    return z.NEVER;
  }
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, path: issue.path } as never);
  return z.NEVER;
});

export const McpConfigSchema = z
  .object({
    mcpServers: z.record(
      z.string().max(MAX_SERVER_NAME).regex(SERVER_NAME, "letters, digits, `-` and single `_` only, starting with a letter or digit"),
      ServerSchema,
    ),
    mcp_non_interactive: z
      .enum(["ask", "policy"])
      .default("ask")
      .describe("policy: no human is asked about MCP calls; what the policy would ask about is denied."),
  })
  .strict();

export type StdioServerConfig = z.infer<typeof StdioServerSchema> & { name: string };
type HttpServerConfig = z.infer<typeof HttpServerSchema> & { name: string };
export type McpServerConfig = StdioServerConfig | HttpServerConfig;

export interface McpConfig {
  servers: McpServerConfig[];
  nonInteractive: "ask" | "policy";
  /** Directory of the file: default working directory of stdio servers. */
  dir: string;
}

/** A resume's MCP servers: the configuration and how their answers are treated. */
export interface McpRuntime {
  config: McpConfig;
  /** No human can answer an MCP `ask` (the CLI without a terminal); `mcp_non_interactive: policy` implies it. */
  nonInteractive?: boolean;
  /** Values to redact from what servers send, besides the environment's and the config's own secrets. */
  secrets?: string[];
}

export class McpConfigError extends FatalError {
  readonly kind = "invalid_mcp_config";
}

export function isStdio(s: McpServerConfig): s is StdioServerConfig {
  return "command" in s;
}

/** Parses the operator's file; throws McpConfigError with the file and the field. */
export function loadMcpConfig(file: string): McpConfig {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    throw new McpConfigError(`MCP config ${file} cannot be read: ${(e as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new McpConfigError(`MCP config ${file} is not valid JSON: ${(e as Error).message}`);
  }
  return parseMcpConfig(raw, file);
}

export function parseMcpConfig(raw: unknown, file: string): McpConfig {
  const parsed = McpConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const keys = issue.code === "unrecognized_keys" ? `: unknown field ${issue.keys.map((k) => `\`${k}\``).join(", ")}` : `: ${issue.message}`;
    const field = issue.path.map(String).join(".") || "(top level)";
    throw new McpConfigError(`MCP config ${file}: \`${field}\`${keys}`);
  }
  const servers = Object.entries(parsed.data.mcpServers).map(([name, s]) => ({ ...s, name }) as McpServerConfig);
  return { servers, nonInteractive: parsed.data.mcp_non_interactive, dir: path.dirname(path.resolve(file)) };
}

/** The servers a session on `repo` may use (its `repositories` globs, case-insensitive like GitHub). */
export function serversFor(config: McpConfig, repo: string): McpServerConfig[] {
  return config.servers.filter((s) => s.repositories === undefined || picomatch.isMatch(repo, s.repositories, { nocase: true, dot: true }));
}

/**
 * Values to redact wherever text leaves the process: secret-looking env values of the servers (by the
 * same names as Patchgate's own), and every header value (they are how HTTP servers authenticate).
 */
export function mcpConfigSecrets(config: McpConfig | null): string[] {
  if (!config) return [];
  const fromEnv = config.servers.flatMap((s) => (isStdio(s) ? secretsFromEnv(s.env) : []));
  // `Bearer abc…`: the token alone is what may appear in a result.
  const fromHeaders = config.servers.flatMap((s) => (isStdio(s) ? [] : Object.values(s.headers).flatMap((v) => [v, v.trim().split(/\s+/).at(-1) ?? ""])));
  return [...new Set([...fromEnv, ...fromHeaders])].filter((v) => v.length >= MIN_SECRET_LENGTH && !/^\d+$/.test(v));
}

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { McpServerConfig } from "./config.js";
import { buildTransport, type TransportPlaces } from "./transport.js";

/**
 * One live connection to one configured server, through the official SDK. Patchgate declares no client
 * capabilities: a server can never sample Patchgate's model, ask the user or list roots. Lists and
 * results are read with loose schemas so that one malformed tool is dropped by the caller instead of
 * failing the whole list inside the SDK.
 */

/** Pages and tools read from one list; more is a server flooding the prompt. */
const MAX_PAGES = 10;
export const MAX_TOOLS_PER_SERVER = 128;

const ToolPage = z.looseObject({ tools: z.array(z.unknown()), nextCursor: z.string().optional() });
const CallResult = z.looseObject({ content: z.array(z.unknown()).optional(), structuredContent: z.unknown().optional(), isError: z.boolean().optional() });
export type RawCallResult = z.infer<typeof CallResult>;

export interface ServerInfo {
  name: string;
  version: string;
}

export class McpConnection {
  private stopped: string | null = null;
  private closing = false;
  /** Set by `notifications/tools/list_changed`; the session reads and clears it before the next model call. */
  listChanged = false;

  private constructor(
    readonly config: McpServerConfig,
    readonly kind: "stdio" | "http",
    readonly info: ServerInfo,
    private readonly client: Client,
    private readonly stderrTail: () => string,
  ) {}

  /** Starts (stdio) or reaches (http) the server and runs `initialize`; throws with the server's stderr on failure. */
  static async open(config: McpServerConfig, places: TransportPlaces): Promise<McpConnection> {
    const built = buildTransport(config, places);
    const client = new Client({ name: "patchgate", version: "1" }, { capabilities: {} });
    try {
      await client.connect(built.transport, { timeout: config.timeout_seconds * 1000 });
    } catch (e) {
      await client.close().catch(() => {});
      throw new Error(withStderr((e as Error).message, built.stderrTail()), { cause: e });
    }
    const v = client.getServerVersion();
    const info = { name: String(v?.name ?? config.name).slice(0, 100), version: String(v?.version ?? "unknown").slice(0, 50) };
    const conn = new McpConnection(config, built.kind, info, client, built.stderrTail);
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      conn.listChanged = true;
    });
    let lastError = "";
    client.onerror = (e) => {
      lastError = e.message;
    };
    client.onclose = () => {
      const after = lastError === "" ? "" : ` after: ${lastError}`;
      if (!conn.closing) conn.stopped ??= withStderr(`the connection closed${after}`, built.stderrTail());
    };
    return conn;
  }

  /** null while it runs; why it stopped, once it has. */
  get stoppedBecause(): string | null {
    return this.stopped;
  }

  /** Every tool the server lists (raw, unchecked), at most MAX_TOOLS_PER_SERVER; `more` when it listed more. */
  async listTools(): Promise<{ tools: unknown[]; more: boolean }> {
    const tools: unknown[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const r = await this.client.request({ method: "tools/list", params: cursor ? { cursor } : {} }, ToolPage, { timeout: this.timeoutMs });
      tools.push(...r.tools);
      cursor = r.nextCursor;
      if (cursor === undefined || tools.length > MAX_TOOLS_PER_SERVER) break;
    }
    return { tools: tools.slice(0, MAX_TOOLS_PER_SERVER), more: tools.length > MAX_TOOLS_PER_SERVER || cursor !== undefined };
  }

  async callTool(name: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<RawCallResult> {
    try {
      return await this.client.request({ method: "tools/call", params: { name, arguments: args } }, CallResult, { timeout: this.timeoutMs, signal });
    } catch (e) {
      // A request that failed because the server went away says so, with what the server last said.
      if (this.stopped !== null) throw new Error(this.stopped, { cause: e });
      throw e;
    }
  }

  /** A server whose tool list cannot be read is treated as stopped; it is closed. */
  async stop(why: string): Promise<void> {
    this.stopped ??= withStderr(why, this.stderrTail());
    await this.close();
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.client.close().catch(() => {});
  }

  private get timeoutMs(): number {
    return this.config.timeout_seconds * 1000;
  }
}

function withStderr(message: string, stderr: string): string {
  const tail = stderr.trim().split("\n").slice(-5).join(" | ");
  return tail === "" ? message : `${message}; stderr: ${tail}`;
}

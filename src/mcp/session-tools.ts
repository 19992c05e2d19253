import { z } from "zod";
import type { SessionEvent } from "../session/events.js";
import type { McpToolRecord } from "../session/mcp-records.js";
import type { Ledger } from "../store/ledger.js";
import { redact } from "../safety/redact.js";
import { sanitizeUntrusted } from "../safety/sanitize.js";
import { defineTool } from "../tools/define-tool.js";
import type { ToolDefinition } from "../tools/tool.js";
import { serversFor, type McpConfig, type McpServerConfig } from "./config.js";
import { McpConnection, MAX_TOOLS_PER_SERVER } from "./connection.js";
import { mcpToolDefinition, unavailable, type McpToolSpec } from "./tool-definition.js";
import { checkTools } from "./tool-list.js";

/**
 * The MCP tools of one resume. Servers are connected when the resume starts and closed when it ends
 * (nothing lives between resumes). Every change is recorded at one point, `sync()`, which the loop calls
 * before each model call: a server that stopped (its tools leave the offer; a call to one gets a
 * readable refusal) and a `list_changed` that changed something (the new list is offered from this call).
 */

export interface McpSessionOptions {
  config: McpConfig;
  /** `owner/name` (or the CLI's --repo): which servers this session may use. */
  repo: string;
  workspaceRoot: string;
  /** Redacted from every result and message a server sends. */
  secrets: readonly string[];
}

interface ServerSlot {
  config: McpServerConfig;
  conn: McpConnection | null;
  tools: ToolDefinition[];
  records: McpToolRecord[];
  droppedSeen: Set<string>;
  failureRecorded: boolean;
}

const toRecord = (s: McpToolSpec, modes: McpToolRecord["modes"]): McpToolRecord => ({
  name: s.name,
  tool: s.tool,
  risk: s.risk,
  reasons: s.reasons,
  version: s.version,
  modes,
});

export class McpSession {
  private constructor(
    private readonly ledger: Ledger,
    private readonly slots: ServerSlot[],
    private readonly secrets: readonly string[],
  ) {}

  static async open(ledger: Ledger, opts: McpSessionOptions): Promise<McpSession> {
    const servers = serversFor(opts.config, opts.repo);
    const places = { workspaceRoot: opts.workspaceRoot, configDir: opts.config.dir };
    // In parallel: a slow server must not add its start-up time to every other's.
    const opened = await Promise.allSettled(servers.map((s) => McpConnection.open(s, places)));
    const session = new McpSession(ledger, [], opts.secrets);
    for (const [i, config] of servers.entries()) {
      const r = opened[i];
      const slot: ServerSlot = { config, conn: null, tools: [], records: [], droppedSeen: new Set(), failureRecorded: false };
      session.slots.push(slot);
      if (r.status === "rejected") {
        await session.failed(slot, "start", (r.reason as Error).message);
        continue;
      }
      slot.conn = r.value;
      const { info, kind } = r.value;
      await ledger.append({
        type: "mcp_server_connected",
        server: config.name,
        transport: kind,
        trust: config.trust,
        serverName: session.clean(info.name),
        serverVersion: session.clean(info.version),
      });
      await session.relist(slot, "start");
    }
    return session;
  }

  /** What the model is offered: the tools of every server that still runs. */
  offered(): ToolDefinition[] {
    return this.slots.flatMap((s) => (s.conn !== null && s.conn.stoppedBecause === null ? s.tools : []));
  }

  /** What a call may name: also the tools of stopped servers, which answer with a readable refusal. */
  callable(): ToolDefinition[] {
    return this.slots.flatMap((s) => s.tools);
  }

  /** Records what changed since the last model call; call it before each one. */
  async sync(): Promise<void> {
    for (const slot of this.slots) {
      const why = slot.conn?.stoppedBecause ?? null;
      if (why !== null && !slot.failureRecorded) await this.failed(slot, "running", why);
      else if (why === null && slot.conn?.listChanged) {
        slot.conn.listChanged = false;
        await this.relist(slot, "list_changed");
      }
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.slots.map((s) => s.conn?.close()));
  }

  private async relist(slot: ServerSlot, reason: "start" | "list_changed"): Promise<void> {
    const conn = slot.conn!;
    let listed: { tools: unknown[]; more: boolean };
    try {
      listed = await conn.listTools();
    } catch (e) {
      await conn.stop(`its tool list could not be read: ${(e as Error).message}`);
      return this.failed(slot, reason === "start" ? "start" : "running", conn.stoppedBecause ?? "");
    }
    const checked = checkTools(slot.config, conn.info, listed.tools);
    if (listed.more) checked.dropped.push({ tool: "(the rest)", reason: `the server lists more than ${MAX_TOOLS_PER_SERVER} tools` });
    const caller = { stoppedBecause: () => conn.stoppedBecause, call: conn.callTool.bind(conn) };
    const tools = checked.specs.map((spec) => mcpToolDefinition(spec, caller, this.secrets));
    const records = checked.specs.map((spec, i) => toRecord(spec, tools[i].modes));
    const before = new Map(slot.records.map((r) => [r.name, r.version]));
    const now = new Map(records.map((r) => [r.name, r.version]));
    const added = records.filter((r) => !before.has(r.name)).map((r) => r.name);
    const removed = slot.records.filter((r) => !now.has(r.name)).map((r) => r.name);
    const changed = records.filter((r) => before.has(r.name) && before.get(r.name) !== r.version).map((r) => r.name);
    const newlyDropped = checked.dropped.filter((d) => !slot.droppedSeen.has(`${d.tool}\n${d.reason}`));
    for (const d of newlyDropped) slot.droppedSeen.add(`${d.tool}\n${d.reason}`);
    slot.tools = tools;
    slot.records = records;
    const events: SessionEvent[] = newlyDropped.map((d) => ({
      type: "mcp_tool_dropped",
      server: slot.config.name,
      tool: d.tool,
      reason: this.clean(d.reason),
    }));
    if (reason === "start" || added.length + removed.length + changed.length > 0) {
      events.push({ type: "mcp_tools_listed", server: slot.config.name, reason, tools: records, added, removed, changed });
    }
    if (events.length > 0) await this.ledger.append(...events);
  }

  /** A server that will not answer: its event, and for tools known from earlier resumes, readable refusals. */
  private async failed(slot: ServerSlot, stage: "start" | "running", why: string): Promise<void> {
    const message = this.clean(why);
    slot.failureRecorded = true;
    if (stage === "start") slot.tools = remembered(this.ledger, slot.config.name, message);
    await this.ledger.append({ type: "mcp_server_failed", server: slot.config.name, stage, message });
  }

  private clean(text: string): string {
    return redact(sanitizeUntrusted(text, { maxChars: 500 }), this.secrets);
  }
}

/**
 * The tools an earlier resume recorded for a server that did not start this time: still callable by
 * name (the model remembers them), each answering that the server is not running.
 */
function remembered(ledger: Ledger, server: string, why: string): ToolDefinition[] {
  const last = [...ledger.history].reverse().find((e) => e.type === "mcp_tools_listed" && e.server === server);
  if (!last || last.type !== "mcp_tools_listed") return [];
  return last.tools.map((r) =>
    defineTool({
      name: r.name,
      version: r.version,
      description: `MCP tool of the stopped server "${server}".`,
      input: z.unknown(),
      effect: { risk: "mcp", mutatesWorkspace: false, idempotent: false },
      modes: ["plan", "execute"],
      precheck: async () => unavailable(server, why),
      request: () => ({ kind: "meta" }),
      execute: async () => ({ result: { ok: false, error: unavailable(server, why) } }),
    }),
  );
}

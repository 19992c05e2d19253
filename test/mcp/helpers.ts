import { rmSync } from "node:fs";
import { join } from "node:path";
import { createSession } from "../../src/agent/session-service.js";
import { parseMcpConfig, type McpConfig } from "../../src/mcp/config.js";
import { McpSession } from "../../src/mcp/session-tools.js";
import type { StoredEvent } from "../../src/session/events.js";
import type { Ledger } from "../../src/store/ledger.js";
import { SqliteSessionStore } from "../../src/store/sqlite-store.js";
import { tempDir } from "../helpers/git-fixture.js";

/** An operator config from `mcpServers` entries (as a parsed file in `dir` would be). */
export function mcpConfig(servers: Record<string, unknown>, dir: string, extra: Record<string, unknown> = {}): McpConfig {
  return parseMcpConfig({ mcpServers: servers, ...extra }, join(dir, "mcp.json"));
}

/** A session ledger on a real SQLite file, and the MCP tools of one resume opened on it. */
export async function openMcp(config: McpConfig, workspaceRoot: string, secrets: string[] = []) {
  const dir = tempDir("pg-mcp-store-");
  const store = SqliteSessionStore.open(join(dir, "patchgate.sqlite"));
  const ledger: Ledger = await createSession(store, {
    task: { title: "t", body: "", source: { kind: "github", repo: "octo-org/calculator" } },
    model: "m",
  });
  const mcp = await McpSession.open(ledger, { config, repo: "octo-org/calculator", workspaceRoot, secrets });
  return {
    ledger,
    mcp,
    events: <T extends StoredEvent["type"]>(type: T) => ledger.history.filter((e): e is Extract<StoredEvent, { type: T }> => e.type === type),
    close: async () => {
      await mcp.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

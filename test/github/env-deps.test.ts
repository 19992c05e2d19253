import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { depsFromEnv } from "../../src/github/env-deps.js";
import { tempDir } from "../helpers/git-fixture.js";

describe("production wiring", () => {
  test("log lines are redacted before they leave the process", async () => {
    const dir = tempDir("pg-env-");
    const lines: string[] = [];
    const deps = depsFromEnv((l) => lines.push(l), { PATCHGATE_DATA_DIR: dir, OPENAI_API_KEY: "sk-live-abcdefghijklmnopqrstuvwx", WEBHOOK_SECRET: "hunter2-webhook-secret" });
    try {
      deps.log("push failed for ghs_abcdefghijklmnopqrstuvwxyz0123456789 with key sk-live-abcdefghijklmnopqrstuvwx and hunter2-webhook-secret");
      expect(lines).toHaveLength(1);
      expect(lines[0]).not.toMatch(/ghs_abc|sk-live|hunter2/);
      expect(lines[0]).toContain("[REDACTED:");
    } finally {
      await deps.store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("production wiring: the delivery reconciler", () => {
  test("on every 10 minutes by default, off with PATCHGATE_RECONCILE_MINUTES=0, a clear error for nonsense", async () => {
    const dir = tempDir("pg-env-");
    const on = depsFromEnv(() => {}, { PATCHGATE_DATA_DIR: dir });
    await on.store.close();
    expect(on.reconcile).toEqual({ firstAfterMs: 60_000, everyMs: 600_000 });
    const off = depsFromEnv(() => {}, { PATCHGATE_DATA_DIR: dir, PATCHGATE_RECONCILE_MINUTES: "0" });
    await off.store.close();
    expect(off.reconcile).toBeNull();
    expect(() => depsFromEnv(() => {}, { PATCHGATE_DATA_DIR: dir, PATCHGATE_RECONCILE_MINUTES: "often" })).toThrow('PATCHGATE_RECONCILE_MINUTES must be a number of minutes ≥ 0, not "often"');
    rmSync(dir, { recursive: true, force: true });
  });
});

describe("production wiring: the operator's MCP servers", () => {
  test("PATCHGATE_MCP_CONFIG is loaded at start; its header tokens join the redacted secrets", async () => {
    const dir = tempDir("pg-env-");
    const file = join(dir, "mcp.json");
    writeFileSync(file, JSON.stringify({ mcpServers: { remote: { url: "https://mcp.example/mcp", headers: { Authorization: "Bearer remote-mcp-token-9876" }, trust: "reviewed" } } }));
    const deps = depsFromEnv(() => {}, { PATCHGATE_DATA_DIR: dir, PATCHGATE_MCP_CONFIG: file });
    try {
      expect(deps.mcp?.servers.map((s) => [s.name, s.trust])).toEqual([["remote", "reviewed"]]);
      expect(deps.secrets).toEqual(expect.arrayContaining(["remote-mcp-token-9876"]));
      expect(deps.secrets).not.toContain("Bearer");
    } finally {
      await deps.store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a broken PATCHGATE_MCP_CONFIG stops the app with the file and the field", () => {
    const dir = tempDir("pg-env-");
    const file = join(dir, "mcp.json");
    writeFileSync(file, JSON.stringify({ mcpServers: { x: { command: "node", trust: "yes" } } }));
    try {
      expect(() => depsFromEnv(() => {}, { PATCHGATE_DATA_DIR: dir, PATCHGATE_MCP_CONFIG: file })).toThrow(`MCP config ${file}: \`mcpServers.x.trust\``);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

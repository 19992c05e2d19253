import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pinoSink, redactedLog, textSink, type LogFields, type LogLevel } from "../../../src/github/app-log.js";
import { depsFromEnv } from "../../../src/github/env-deps.js";
import { tempDir } from "../../helpers/git-fixture.js";

describe("production wiring", () => {
  test("log lines are redacted before they leave the process", async () => {
    const dir = tempDir("pg-env-");
    const lines: string[] = [];
    const deps = await depsFromEnv((l) => lines.push(l), {
      PATCHGATE_DATA_DIR: dir,
      OPENAI_API_KEY: "sk-live-abcdefghijklmnopqrstuvwx",
      WEBHOOK_SECRET: "hunter2-webhook-secret",
    });
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

describe("production wiring: levelled logs", () => {
  test("a failed job is logged at error, with its job and lane as fields, line and fields redacted", async () => {
    const dir = tempDir("pg-env-");
    const records: [string, LogLevel, LogFields][] = [];
    const deps = await depsFromEnv((line, level, fields) => records.push([line, level, fields]), {
      PATCHGATE_DATA_DIR: dir,
      OPENAI_API_KEY: "sk-live-abcdefghijklmnopqrstuvwx",
    });
    try {
      const ran = new Promise<void>((resolve) => {
        deps.queue.enqueue({
          key: "o/r#sk-live-abcdefghijklmnopqrstuvwx",
          name: "start o/r#1",
          run: () => (setImmediate(resolve), Promise.reject(new Error("push refused for sk-live-abcdefghijklmnopqrstuvwx"))),
        });
      });
      await ran;
      await new Promise((r) => setImmediate(r));
      expect(records).toHaveLength(1);
      const [line, level, fields] = records[0];
      expect([level, fields.job]).toEqual(["error", "start o/r#1"]);
      expect(`${line} ${JSON.stringify(fields)}`).not.toContain("sk-live");
      expect(line).toMatch(/^job start o\/r#1 failed: push refused for \[REDACTED:/);
      expect(String(fields.lane)).toContain("[REDACTED:");
    } finally {
      await deps.store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("Probot's pino logger gets the fields first, as JSON keys, at the line's level", () => {
    const calls: [string, LogFields, string][] = [];
    const at = (level: LogLevel) => (fields: LogFields, msg: string) => calls.push([level, fields, msg]);
    const log = redactedLog(pinoSink({ info: at("info"), warn: at("warn"), error: at("error") }), ["hunter2-secret"]);
    log("cloned at abc1234");
    log("job x failed: hunter2-secret", "error", { job: "x" });
    expect(calls).toEqual([
      ["info", {}, "cloned at abc1234"],
      ["error", { job: "x" }, expect.stringMatching(/^job x failed: \[REDACTED:/)],
    ]);
  });

  test("a worker's plain-text log puts a level in front of what is not info, and the fields after", () => {
    let text = "";
    const sink = textSink((t) => (text += t));
    sink("worker takes 2 session(s)", "info", {});
    sink("job x is dead-lettered", "error", { job: "x", attempts: 4 });
    expect(text).toBe('worker takes 2 session(s)\nERROR job x is dead-lettered {"job":"x","attempts":4}\n');
  });
});

describe("production wiring: the delivery reconciler", () => {
  test("on every 10 minutes by default, off with PATCHGATE_RECONCILE_MINUTES=0, a clear error for nonsense", async () => {
    const dir = tempDir("pg-env-");
    const on = await depsFromEnv(() => {}, { PATCHGATE_DATA_DIR: dir });
    await on.store.close();
    expect(on.reconcile).toEqual({ firstAfterMs: 60_000, everyMs: 600_000 });
    const off = await depsFromEnv(() => {}, { PATCHGATE_DATA_DIR: dir, PATCHGATE_RECONCILE_MINUTES: "0" });
    await off.store.close();
    expect(off.reconcile).toBeNull();
    await expect(depsFromEnv(() => {}, { PATCHGATE_DATA_DIR: dir, PATCHGATE_RECONCILE_MINUTES: "often" })).rejects.toThrow(
      'PATCHGATE_RECONCILE_MINUTES must be a number of minutes ≥ 0, not "often"',
    );
    rmSync(dir, { recursive: true, force: true });
  });
});

describe("production wiring: the operator's MCP servers", () => {
  test("PATCHGATE_MCP_CONFIG is loaded at start; its header tokens join the redacted secrets", async () => {
    const dir = tempDir("pg-env-");
    const file = join(dir, "mcp.json");
    writeFileSync(
      file,
      JSON.stringify({
        mcpServers: { remote: { url: "https://mcp.example/mcp", headers: { Authorization: "Bearer remote-mcp-token-9876" }, trust: "reviewed" } },
      }),
    );
    const deps = await depsFromEnv(() => {}, { PATCHGATE_DATA_DIR: dir, PATCHGATE_MCP_CONFIG: file });
    try {
      expect(deps.mcp?.servers.map((s) => [s.name, s.trust])).toEqual([["remote", "reviewed"]]);
      expect(deps.secrets).toEqual(expect.arrayContaining(["remote-mcp-token-9876"]));
      expect(deps.secrets).not.toContain("Bearer");
    } finally {
      await deps.store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a broken PATCHGATE_MCP_CONFIG stops the app with the file and the field", async () => {
    const dir = tempDir("pg-env-");
    const file = join(dir, "mcp.json");
    writeFileSync(file, JSON.stringify({ mcpServers: { x: { command: "node", trust: "yes" } } }));
    try {
      await expect(depsFromEnv(() => {}, { PATCHGATE_DATA_DIR: dir, PATCHGATE_MCP_CONFIG: file })).rejects.toThrow(
        `MCP config ${file}: \`mcpServers.x.trust\``,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

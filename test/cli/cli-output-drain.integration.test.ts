import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { SqliteSessionStore } from "../../src/store/sqlite-store.js";
import type { SessionEvent } from "../../src/session/events.js";
import { cliMain } from "../helpers/compiled-app.js";
import { tempDir } from "../helpers/git-fixture.js";

const ROOT = join(import.meta.dirname, "../..");
const SESSION = "0123abcd-drain-test";
const MAIN = await cliMain();

/** Runs the CLI with stdout on a real pipe; `closeAfterFirstChunk` plays `| head`: the reader goes away. */
function cliThroughPipe(args: string[], dataDir: string, closeAfterFirstChunk = false): Promise<{ code: number | null; stdout: Buffer; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("node", [MAIN, ...args], {
      cwd: ROOT,
      env: { ...process.env, PATCHGATE_DATA_DIR: dataDir },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const out: Buffer[] = [];
    let stderr = "";
    child.stdout.on("data", (b: Buffer) => {
      out.push(b);
      if (closeAfterFirstChunk) child.stdout.destroy();
    });
    child.stderr.on("data", (b: Buffer) => (stderr += b.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout: Buffer.concat(out), stderr }));
  });
}

/** A stored session whose trace is ~400 KB: far beyond the kernel's 64 KB pipe buffer. */
async function bigSession(dataDir: string): Promise<SessionEvent[]> {
  const events: SessionEvent[] = [
    {
      type: "session_created",
      sessionId: SESSION,
      task: { title: "big", body: "a session with a long conversation", source: { kind: "cli", repo: "/tmp/x" } },
      model: "fake",
      settings: { maxStepsPerResume: 10, limits: {} },
    },
  ];
  for (let i = 0; i < 400; i++) events.push({ type: "assistant_message", content: `step ${i} ` + "x".repeat(1000), toolCalls: [] });
  const store = SqliteSessionStore.open(join(dataDir, "patchgate.sqlite"));
  try {
    await store.append(SESSION, events, { phase: "queued" });
  } finally {
    await store.close();
  }
  return events;
}

describe("CLI output through a pipe", () => {
  const dataDir = tempDir("pg-drain-");
  let events: SessionEvent[];
  beforeAll(async () => {
    events = await bigSession(dataDir);
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  test("trace --jsonl delivers every event, all > 64 KB of it, before the process exits", async () => {
    const r = await cliThroughPipe(["trace", SESSION, "--jsonl"], dataDir);
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
    expect(r.stdout.length).toBeGreaterThan(4 * 65_536);
    const lines = r.stdout.toString("utf8").trimEnd().split("\n");
    expect(lines.map((l) => (JSON.parse(l) as SessionEvent).type)).toEqual(events.map((e) => e.type));
  });

  test("trace --json is one whole, parseable document", async () => {
    const r = await cliThroughPipe(["trace", SESSION, "--json"], dataDir);
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout.toString("utf8")) as unknown[]).length).toBe(events.length);
  });

  test("show prints the last event's row too", async () => {
    const r = await cliThroughPipe(["show", SESSION, "--events"], dataDir);
    expect(r.code).toBe(0);
    expect(r.stdout.toString("utf8").trimEnd().split("\n").length).toBeGreaterThanOrEqual(events.length);
  });

  test("a reader that goes away early (| head) ends nothing in a stack trace", async () => {
    const r = await cliThroughPipe(["trace", SESSION, "--jsonl"], dataDir, true);
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
  });
});

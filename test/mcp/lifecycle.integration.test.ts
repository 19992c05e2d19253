import { readFileSync, rmSync } from "node:fs";
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { join } from "node:path";
import { projectContext } from "../../src/mcp/server/project-context.js";
import { tempDir } from "../helpers/git-fixture.js";
import { EVERYTHING_ENTRY, everythingServer, obj, scriptedServer, type ScriptedTool } from "../fakes/mcp-servers.js";
import { mcpConfig, openMcp } from "./helpers.js";

/** Servers that change, die, never start, hang, or live behind HTTP — the session goes on through all of it. */
const FRESH: ScriptedTool = { name: "fresh_tool", description: "new", inputSchema: obj(), does: { text: "fresh" } };
const TOOLS: ScriptedTool[] = [
  { name: "get_status", inputSchema: obj(), does: { text: "ok" } },
  { name: "unlock_more", inputSchema: obj(), does: { unlock: [FRESH] } },
  { name: "crash_now", inputSchema: obj(), does: "exit" },
  { name: "hang_forever", inputSchema: obj(), does: { hang: true } },
];

let dir: string;
const ctx = () => projectContext(dir);
beforeEach(() => {
  dir = tempDir("pg-mcp-life-");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function run(m: Awaited<ReturnType<typeof openMcp>>, name: string) {
  const t = m.mcp.callable().find((x) => x.name === name)!;
  const refused = await t.precheck?.({}, ctx());
  return refused ? { ok: false, error: refused } : (await t.execute({}, ctx())).result;
}

test("notifications/tools/list_changed: the new list is recorded and offered from the next sync", async () => {
  const m = await openMcp(mcpConfig({ s: scriptedServer(dir, TOOLS) }, dir), dir);
  try {
    expect(m.mcp.offered().map((t) => t.name)).not.toContain("mcp__s__fresh_tool");
    expect(await run(m, "mcp__s__unlock_more")).toMatchObject({ ok: true });
    await m.mcp.sync();
    const changed = m.events("mcp_tools_listed").at(-1)!;
    expect(changed).toMatchObject({ server: "s", reason: "list_changed", added: ["mcp__s__fresh_tool"], removed: [], changed: [] });
    expect(m.mcp.offered().map((t) => t.name)).toContain("mcp__s__fresh_tool");
    expect(await run(m, "mcp__s__fresh_tool")).toMatchObject({ ok: true, data: { content: "fresh" } });
    // A notification that changes nothing is no event.
    await run(m, "mcp__s__unlock_more");
    await m.mcp.sync();
    expect(m.events("mcp_tools_listed")).toHaveLength(2);
  } finally {
    await m.close();
  }
});

test("a server that dies mid-call: a readable result, an event, its tools leave the offer; the others stay", async () => {
  const m = await openMcp(mcpConfig({ s: scriptedServer(dir, TOOLS), other: scriptedServer(dir, [TOOLS[0]]) }, dir), dir);
  try {
    const r = await run(m, "mcp__s__crash_now");
    expect(r).toMatchObject({ ok: false, error: { code: "mcp_server_unavailable" } });
    expect((r as { error: { message: string } }).error.message).toMatch(
      /^The MCP server "s" is not running \(the connection closed.*\); its tools are gone for now/,
    );
    await m.mcp.sync();
    expect(m.events("mcp_server_failed")).toEqual([expect.objectContaining({ server: "s", stage: "running" })]);
    expect(m.mcp.offered().map((t) => t.name)).toEqual(["mcp__other__get_status"]);
    // The model may still name a gone tool: it gets the same readable refusal, not a crash.
    expect(await run(m, "mcp__s__get_status")).toMatchObject({ ok: false, error: { code: "mcp_server_unavailable" } });
    expect(await run(m, "mcp__other__get_status")).toMatchObject({ ok: true });
    await m.mcp.sync();
    expect(m.events("mcp_server_failed")).toHaveLength(1);
  } finally {
    await m.close();
  }
});

test("server-everything killed with SIGKILL between calls: the next call is refused readably", async () => {
  const pidFile = join(dir, "pid");
  const m = await openMcp(mcpConfig({ everything: everythingServer({ trust: "reviewed" }, pidFile) }, dir), dir);
  try {
    expect(await run(m, "mcp__everything__get-tiny-image")).toMatchObject({ ok: true });
    process.kill(Number(readFileSync(pidFile, "utf8")), "SIGKILL");
    expect(await run(m, "mcp__everything__get-tiny-image")).toMatchObject({ ok: false, error: { code: "mcp_server_unavailable" } });
    await m.mcp.sync();
    expect(m.events("mcp_server_failed")).toEqual([expect.objectContaining({ server: "everything", stage: "running" })]);
    expect(m.mcp.offered()).toEqual([]);
  } finally {
    await m.close();
  }
});

test("a server that fails to start is an event; the others start", async () => {
  const m = await openMcp(
    mcpConfig(
      {
        broken: { command: join(dir, "no-such-program") },
        exits: { command: process.execPath, args: ["-e", "console.error('bad config'); process.exit(1)"] },
        s: scriptedServer(dir, TOOLS),
      },
      dir,
    ),
    dir,
  );
  try {
    const failed = m.events("mcp_server_failed");
    expect(failed.map((e) => [e.server, e.stage])).toEqual([
      ["broken", "start"],
      ["exits", "start"],
    ]);
    expect(failed[0].message).toContain("ENOENT");
    expect(failed[1].message).toContain("stderr: bad config");
    expect(m.mcp.offered().map((t) => t.name)).toContain("mcp__s__get_status");
  } finally {
    await m.close();
  }
});

test("a call that never answers ends at the server's timeout with a readable result", async () => {
  const m = await openMcp(mcpConfig({ s: { ...scriptedServer(dir, TOOLS), timeout_seconds: 0.5 } }, dir), dir);
  try {
    expect(await run(m, "mcp__s__hang_forever")).toMatchObject({ ok: false, error: { code: "mcp_call_failed", message: expect.stringMatching(/timed out/i) } });
    expect(await run(m, "mcp__s__get_status")).toMatchObject({ ok: true });
  } finally {
    await m.close();
  }
});

test("a server limited to other repositories is not started for this one", async () => {
  const m = await openMcp(
    mcpConfig(
      { mine: { ...scriptedServer(dir, TOOLS), repositories: ["octo-org/*"] }, theirs: { ...scriptedServer(dir, TOOLS), repositories: ["someone/else"] } },
      dir,
    ),
    dir,
  );
  try {
    expect(m.events("mcp_server_connected").map((e) => e.server)).toEqual(["mine"]);
  } finally {
    await m.close();
  }
});

describe("streamable HTTP", () => {
  let server: ChildProcess;
  let url: string;
  beforeAll(async () => {
    const port = await freePort();
    server = spawn(process.execPath, [EVERYTHING_ENTRY, "streamableHttp"], {
      env: { PATH: process.env.PATH, PORT: String(port) },
      stdio: ["ignore", "pipe", "pipe"],
    });
    // Up when it says so on stderr: a signal, not a sleep.
    await new Promise<void>((resolve, reject) => {
      server.stderr!.on("data", (d: Buffer) => d.toString().includes("listening on port") && resolve());
      server.once("exit", (code) => reject(new Error(`server exited ${code}`)));
    });
    url = `http://127.0.0.1:${port}/mcp`;
  });
  afterAll(() => {
    server.kill("SIGKILL");
  });

  test("server-everything over HTTP: connected, listed, called", async () => {
    const m = await openMcp(mcpConfig({ remote: { url, headers: { Authorization: "Bearer http-secret-token-42" }, trust: "reviewed" } }, dir), dir);
    try {
      expect(m.events("mcp_server_connected")).toEqual([
        expect.objectContaining({ server: "remote", transport: "http", serverName: "mcp-servers/everything" }),
      ]);
      const sum = m.mcp.offered().find((t) => t.name === "mcp__remote__get-sum")!;
      expect((await sum.execute({ a: 1, b: 2 }, ctx())).result).toMatchObject({ ok: true, data: { content: "The sum of 1 and 2 is 3." } });
    } finally {
      await m.close();
    }
  });

  test("an HTTP server that goes away: the call is refused readably", async () => {
    const m = await openMcp(mcpConfig({ remote: { url, trust: "reviewed" } }, dir), dir);
    try {
      server.kill("SIGKILL");
      await new Promise((r) => server.once("exit", r));
      const sum = m.mcp.offered().find((t) => t.name === "mcp__remote__get-sum")!;
      expect((await sum.execute({ a: 1, b: 2 }, ctx())).result).toMatchObject({ ok: false, error: { code: "mcp_call_failed" } });
    } finally {
      await m.close();
    }
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

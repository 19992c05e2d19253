import { execFile, spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync, watch, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startFakeOpenAI, type FakeOpenAIServer } from "../fakes/chat/server.js";
import { obj, scriptedServer } from "../fakes/mcp-servers.js";
import { cliMain } from "../helpers/compiled-app.js";
import { BUGGY_ADD_REPO, makeRepo, tempDir } from "../helpers/git-fixture.js";
import { SqliteSessionStore } from "../../src/store/sqlite-store.js";

/** The CLI with an operator's MCP config: a real process, killed with SIGKILL in the middle of an MCP call. */
const ROOT = join(import.meta.dirname, "../..");
// The compiled tree (../helpers/compiled-app.ts), as `npx patchgate` runs dist/: no tsx loader at each start.
const ARGS = [await cliMain()];

function clean(env: Record<string, string>): NodeJS.ProcessEnv {
  const e = { ...process.env, ...env };
  delete e.PATCHGATE_MCP_CONFIG;
  return e;
}

function cli(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [...ARGS, ...args], { cwd: ROOT, env: clean(env), timeout: 120_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** Resolves once `file` exists and is not empty: fs.watch on its directory, no polling sleep. */
function whenWritten(file: string): Promise<void> {
  return new Promise((resolve) => {
    const check = () => existsSync(file) && readFileSync(file, "utf8").length > 0;
    if (check()) return resolve();
    const w = watch(join(file, ".."), () => {
      if (!check()) return;
      w.close();
      resolve();
    });
  });
}

/** Plan, one MCP call, then the fix: read, plan, the call, edit, tests, finish. */
function fixWith(mcpCall: { name: string; arguments: object }) {
  const step = (name: string, args: object = {}) => ({ toolCalls: [{ name, arguments: args }] });
  return [
    step("read_file", { path: "src/add.js" }),
    step("submit_plan", { summary: "fix", steps: ["edit", "test"] }),
    { toolCalls: [mcpCall] },
    step("edit_file", { path: "src/add.js", edits: [{ search: "a - b", replace: "a + b" }] }),
    step("run_tests"),
    step("finish", { summary: "add adds" }),
  ];
}

describe("patchgate run --mcp-config", () => {
  let server: FakeOpenAIServer | undefined;
  const cleanups: (() => void)[] = [];
  afterEach(async () => {
    await server?.close();
    for (const c of cleanups.splice(0)) c();
  });

  function setup(tools: Parameters<typeof scriptedServer>[1], extra: Record<string, unknown> = {}) {
    const repo = makeRepo({ ...BUGGY_ADD_REPO, ".mcp.json": JSON.stringify({ mcpServers: { planted: { command: "/bin/false" } } }) });
    const data = tempDir("pg-cli-mcp-");
    cleanups.push(repo.cleanup, () => rmSync(data, { recursive: true, force: true }));
    const file = join(data, "mcp.json");
    writeFileSync(file, JSON.stringify({ mcpServers: { s: { ...scriptedServer(data, tools), ...extra } } }));
    return { repo, data, file, log: join(data, "calls.log") };
  }

  test("without a terminal, an MCP call the policy would ask about is denied with a clear result; the session goes on", async () => {
    const { repo, data, file, log } = setup([{ name: "create_note", inputSchema: obj({ title: { type: "string" } }), does: "log" }]);
    server = await startFakeOpenAI(fixWith({ name: "mcp__s__create_note", arguments: { title: "x" } }));
    const env = { OPENAI_API_KEY: "sk-cli-test-key", OPENAI_BASE_URL: server.baseURL, PATCHGATE_DATA_DIR: data, PATCHGATE_MODEL: "fake-model" };
    const r = await cli(["run", "--repo", repo.dir, "--approve-plan", "--approve-writes", "--mcp-config", file, "Fix add"], env);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/mcp_server_connected .*s \(untrusted, stdio\): scripted 1\.0\.0/);
    expect(r.stdout).toContain("mcp__s__create_note error mcp_denied: Refused by policy rule deny:unattended");
    expect(r.stdout).not.toContain("planted");
    expect(existsSync(log)).toBe(false);
    // The model saw the refusal as its tool result.
    expect(JSON.stringify(server.requests[3].body.messages)).toContain("this session runs unattended, so nobody can give it");
  });

  test("a broken --mcp-config is a usage error naming the field, not a stack trace", async () => {
    const data = tempDir("pg-cli-mcp-");
    cleanups.push(() => rmSync(data, { recursive: true, force: true }));
    const file = join(data, "mcp.json");
    writeFileSync(file, JSON.stringify({ mcpServers: { s: { command: "x", trust: "very" } } }));
    const r = await cli(["run", "--repo", data, "--mcp-config", file, "task"], { OPENAI_API_KEY: "sk-x", PATCHGATE_DATA_DIR: data });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`patchgate: MCP config ${file}: \`mcpServers.s.trust\`: Invalid option: expected one of "trusted"|"reviewed"|"untrusted"\n`);
  });

  test("mcp-server without --repo, or with a missing one, is a usage error", async () => {
    expect(await cli(["mcp-server"], {})).toEqual({ code: 2, stdout: "", stderr: "patchgate: usage: patchgate mcp-server --repo <path>\n" });
    expect(await cli(["mcp-server", "--repo", "/no/such/dir"], {})).toEqual({ code: 2, stdout: "", stderr: "patchgate: --repo /no/such/dir does not exist\n" });
  });

  test("kill -9 while an MCP call runs: the resume answers it `interrupted` and never sends it again", async () => {
    const { repo, data, file, log } = setup([{ name: "slow_write", inputSchema: obj({ text: { type: "string" } }), does: { hang: true } }], {
      trust: "reviewed",
      allow_tools: ["slow_*"],
    });
    server = await startFakeOpenAI(fixWith({ name: "mcp__s__slow_write", arguments: { text: "once" } }));
    const env = { OPENAI_API_KEY: "sk-cli-test-key", OPENAI_BASE_URL: server.baseURL, PATCHGATE_DATA_DIR: data, PATCHGATE_MODEL: "fake-model" };
    const child = spawn(process.execPath, [...ARGS, "run", "--repo", repo.dir, "--approve-plan", "--approve-writes", "--mcp-config", file, "Fix add"], {
      cwd: ROOT,
      env: clean(env),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once("exit", (_c, sig) => resolve(sig)));
    await whenWritten(log);
    child.kill("SIGKILL");
    expect(await exited).toBe("SIGKILL");
    const sessionId = /session (\S+)/.exec(stdout)![1];

    const r = await cli(["resume", sessionId, "--approve-writes", "--mcp-config", file], env);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(readFileSync(log, "utf8").trim().split("\n")).toEqual([JSON.stringify({ tool: "slow_write", input: { text: "once" } })]);
    const store = SqliteSessionStore.open(join(data, "patchgate.sqlite"));
    try {
      const events = await store.load(sessionId);
      expect(events.flatMap((e) => (e.type === "mcp_call" ? [e.stage] : []))).toEqual(["started", "interrupted"]);
      const answered = events.filter((e) => e.type === "tool_result" && e.tool === "mcp__s__slow_write");
      expect(answered).toEqual([expect.objectContaining({ result: { ok: false, error: expect.objectContaining({ code: "interrupted" }) } })]);
      expect(events.at(-1)!.type).toBe("published");
    } finally {
      await store.close();
    }
  });
});

import { closeSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { SqliteSessionStore } from "../../src/store/sqlite-store.js";
import { Ledger } from "../../src/store/ledger.js";
import { startFakeOpenAI, type FakeOpenAIServer } from "../fakes/chat/server.js";
import { runCli } from "../helpers/cli-process.js";
import { makeRepo, tempDir } from "../helpers/git-fixture.js";

/**
 * Issue 11: a second session on the same repository, lockfile and setup command starts with the
 * first one's installed dependencies in place, copied from the dependency cache instead of running
 * setup again; the copy is the session's own. Two real `patchgate run`s on one data directory.
 */
const SETUP = "mkdir -p node_modules/dep && date +%s%N > node_modules/dep/stamp && echo setup-output-$((6*7))";
const FILES = {
  "package.json": '{"name":"fixture","version":"1.0.0"}\n',
  "package-lock.json": '{"lockfileVersion":3}\n',
  ".github/patchgate.yml": `setup: ${SETUP}\ntest: test -s node_modules/dep/stamp\nsandbox:\n  backend: bubblewrap\n  network_for_setup: true\n`,
};

describe("patchgate run: the dependency cache across sessions", () => {
  let server: FakeOpenAIServer | undefined;
  const repo = makeRepo(FILES);
  const data = tempDir("pg-cli-depcache-");
  afterAll(async () => {
    await server?.close();
    repo.cleanup();
    rmSync(data, { recursive: true, force: true });
  });

  async function session(): Promise<{ id: string; setup: Record<string, unknown> }> {
    await server?.close();
    server = await startFakeOpenAI([
      { toolCalls: [{ name: "submit_plan", arguments: { summary: "check", steps: ["run the tests"] } }] },
      { toolCalls: [{ name: "run_tests", arguments: {} }] },
      { toolCalls: [{ name: "finish", arguments: { summary: "nothing to change" } }] },
    ]);
    const env = { OPENAI_API_KEY: "sk-cli-test-key", OPENAI_BASE_URL: server.baseURL, PATCHGATE_DATA_DIR: data, PATCHGATE_MODEL: "fake-model" };
    const r = await runCli(["run", "--repo", repo.dir, "--approve-plan", "--approve-writes", "Run the tests"], env);
    const id = /session (\S+)/.exec(r.stdout)?.[1];
    if (!id) throw new Error(`no session id in: ${r.stdout}\n${r.stderr}`);
    const store = SqliteSessionStore.open(join(data, "patchgate.sqlite"));
    try {
      const ledger = await Ledger.open(store, id);
      const setups = ledger.history.filter((e) => e.type === "setup_run");
      expect(setups).toHaveLength(1);
      expect(ledger.history.filter((e) => e.type === "test_run").map((e) => e.type === "test_run" && e.exitCode)).toEqual([0]);
      return { id, setup: setups[0] as unknown as Record<string, unknown> };
    } finally {
      await store.close();
    }
  }

  test("session 1 installs and stores; session 2 restores instead of running setup; writing its copy leaves the cache alone", async () => {
    const first = await session();
    expect(first.setup).toMatchObject({ exitCode: 0, network: true, dependencyCache: { outcome: "stored", paths: ["node_modules"] } });
    expect(first.setup.summary).toContain("setup-output-42");
    const key = (first.setup.dependencyCache as { key: string }).key;
    const stamp = (id: string) => readFileSync(join(data, "workspaces", id, "node_modules/dep/stamp"), "utf8");

    const second = await session();
    expect(second.setup).toMatchObject({ exitCode: 0, network: true, dependencyCache: { key, outcome: "restored", paths: ["node_modules"] } });
    expect(second.setup.summary).not.toContain("setup-output-42");
    // The very file setup wrote in session 1, not a new run of it.
    expect(stamp(second.id)).toBe(stamp(first.id));

    const cached = join(data, "dependency-cache", "entries", key, "tree/node_modules/dep/stamp");
    const before = readFileSync(cached, "utf8");
    const fd = openSync(join(data, "workspaces", second.id, "node_modules/dep/stamp"), "r+");
    writeSync(fd, "XXXX", 0);
    closeSync(fd);
    expect(readFileSync(cached, "utf8")).toBe(before);
  }, 240_000);
});

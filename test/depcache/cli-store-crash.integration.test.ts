import { existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { startFakeOpenAI, type FakeOpenAIServer } from "../fakes/chat/server.js";
import { runCli, spawnCli } from "../helpers/cli-process.js";
import { makeRepo, tempDir } from "../helpers/git-fixture.js";
import { sessionHistory } from "../helpers/session-history.js";
import { SqliteSessionStore } from "../../src/store/sqlite-store.js";
import type { StoredEvent } from "../../src/session/events.js";

/**
 * kill -9 of `patchgate run` while the dependency-cache store is committing its entry (beside the
 * session, after setup_run): the next session finds either the whole entry or none, never part of one.
 */
const FILES = 3000;
const SETUP = `mkdir -p node_modules/dep && for i in $(seq ${FILES}); do echo "file $i" > node_modules/dep/f$i; done`;
const TEST = `test "$(ls node_modules/dep | wc -l)" -eq ${FILES} && test "$(cat node_modules/dep/f${FILES})" = "file ${FILES}"`;
const REPO = {
  "package.json": '{"name":"fixture","version":"1.0.0"}\n',
  "package-lock.json": '{"lockfileVersion":3}\n',
  ".github/patchgate.yml": `setup: ${SETUP}\ntest: ${TEST}\nsandbox:\n  backend: bubblewrap\n  network_for_setup: true\n`,
};

const plan = { toolCalls: [{ name: "submit_plan", arguments: { summary: "check", steps: ["run the tests"] } }] };
const tests = { toolCalls: [{ name: "run_tests", arguments: {} }] };
const finish = { toolCalls: [{ name: "finish", arguments: { summary: "nothing to change" } }] };

async function historyOf(dataDir: string, id: string): Promise<StoredEvent[]> {
  const store = SqliteSessionStore.open(join(dataDir, "patchgate.sqlite"));
  try {
    return await store.load(id);
  } finally {
    await store.close();
  }
}

describe("the dependency-cache store survives a SIGKILL", () => {
  let server: FakeOpenAIServer | undefined;
  const repo = makeRepo(REPO);
  const data = tempDir("pg-store-crash-");
  afterAll(async () => {
    await server?.close();
    repo.cleanup();
    rmSync(data, { recursive: true, force: true });
  });
  const env = (url: string) => ({ OPENAI_API_KEY: "sk-store-crash-key", OPENAI_BASE_URL: url, PATCHGATE_DATA_DIR: data, PATCHGATE_MODEL: "fake-model" });

  test("killed while the entry is committed: the next session restores the whole entry or runs setup, and its tests pass", async () => {
    const staging = join(data, "dependency-cache", "tmp");
    mkdirSync(staging, { recursive: true });
    server = await startFakeOpenAI([plan, { hold: true }]);
    const run = await spawnCli(["run", "--repo", repo.dir, "--approve-plan", "--approve-writes", "Run the tests"], env(server.baseURL));
    // The model is asked right after setup_run is recorded, while the commit still copies the setup's
    // 3,000 files beside the session: the kill lands there.
    await server.held();
    const entries = join(data, "dependency-cache", "entries");
    const committing = { staged: readdirSync(staging).length, entries: existsSync(entries) ? readdirSync(entries).length : 0 };
    run.child.kill("SIGKILL");
    expect(await run.exited).toBe("SIGKILL");
    const first = (await sessionHistory(data)).find((e) => e.type === "setup_run");
    expect(first).toMatchObject({ exitCode: 0, dependencyCache: { outcome: "stored" } });

    const kept = existsSync(entries) ? readdirSync(entries) : [];
    for (const key of kept) expect(readdirSync(join(entries, key, "tree/node_modules/dep"))).toHaveLength(FILES);

    await server.close();
    server = await startFakeOpenAI([plan, tests, finish]);
    const second = await runCli(["run", "--repo", repo.dir, "--approve-plan", "--approve-writes", "Run the tests"], env(server.baseURL));
    expect(second.code).toBe(0);
    const id = /session (\S+)/.exec(second.stdout)![1];
    const history = await historyOf(data, id);
    const setup = history.find((e) => e.type === "setup_run");
    expect(setup).toMatchObject({ exitCode: 0, dependencyCache: { outcome: kept.length > 0 ? "restored" : "stored" } });
    expect(history.filter((e) => e.type === "test_run").map((e) => e.type === "test_run" && e.exitCode)).toEqual([0]);
    // The kill did land in the commit: the take's and the commit's staging, and no entry yet.
    expect(committing).toEqual({ staged: 2, entries: 0 });
  }, 240_000);
});

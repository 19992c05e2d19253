import { readdirSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startFakeOpenAI, type FakeOpenAIServer } from "../fakes/chat/server.js";
import { HOLDING_TESTS, runCli, spawnCli } from "../helpers/cli-process.js";
import { BUGGY_ADD_REPO, makeRepo, tempDir } from "../helpers/git-fixture.js";

describe("Ctrl-C during patchgate run", () => {
  let server: FakeOpenAIServer | undefined;
  const cleanups: (() => void)[] = [];
  afterEach(async () => {
    await server?.close();
    for (const c of cleanups.splice(0)) c();
  });

  test("prints how to resume and that nothing was lost, exits 130, and the printed command finishes the session", async () => {
    const repo = makeRepo({ ...BUGGY_ADD_REPO, "test.sh": HOLDING_TESTS });
    const data = tempDir("pg-sigint-");
    cleanups.push(repo.cleanup, () => rmSync(data, { recursive: true, force: true }));
    const clone = () => join(data, "workspaces", readdirSync(join(data, "workspaces"))[0]);
    server = await startFakeOpenAI([
      { toolCalls: [{ name: "read_file", arguments: { path: "src/add.js" } }] },
      { toolCalls: [{ name: "submit_plan", arguments: { summary: "make add add", steps: ["fix the operator"] } }] },
      { toolCalls: [{ name: "edit_file", arguments: { path: "src/add.js", edits: [{ search: "a - b", replace: "a + b" }] } }] },
      () => {
        writeFileSync(join(clone(), ".git", "pg-hold"), "");
        return { toolCalls: [{ name: "run_tests", arguments: {} }] };
      },
      { toolCalls: [{ name: "finish", arguments: { summary: "add now adds" } }] },
    ]);
    const env = { OPENAI_API_KEY: "sk-sigint", OPENAI_BASE_URL: server.baseURL, PATCHGATE_DATA_DIR: data, PATCHGATE_MODEL: "fake-model" };
    const run = spawnCli(["run", "--repo", repo.dir, "--approve-plan", "--approve-writes", "--verbose", "Fix add"], env);
    await run.printed("HOLDING");
    run.child.kill("SIGINT");
    expect(await run.code).toBe(130);
    const sessionId = /session (\S+)/.exec(run.stdout())![1];
    expect(run.stdout()).toContain(`\ninterrupted: session ${sessionId} is saved as it was, nothing is lost; continue with: patchgate resume ${sessionId}\n`);
    expect(run.stderr()).toBe("");

    unlinkSync(join(clone(), ".git", "pg-hold"));
    const resumed = await runCli(["resume", sessionId, "--approve-plan", "--approve-writes"], env);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain(`done: branch patchgate/${sessionId.slice(0, 8)}`);
  });
});

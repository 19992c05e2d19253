import { readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startFakeOpenAI, type FakeOpenAIServer } from "../fakes/chat/server.js";
import { BUGGY_ADD_REPO, makeRepo, tempDir } from "../helpers/git-fixture.js";
import { cli } from "../helpers/run-cli.js";

const REPO = {
  ...BUGGY_ADD_REPO,
  ".github/patchgate.yml": "test: sh test.sh\nsetup: sh setup.sh\n",
  // Fails until the file appears in the clone's .git (which the sandbox sees read-only).
  "setup.sh": '[ -e .git/pg-setup-ok ] || { echo "setup needs what is not there yet"; exit 3; }\n',
};

describe("patchgate retry", () => {
  const servers: FakeOpenAIServer[] = [];
  const cleanups: (() => void)[] = [];
  afterEach(async () => {
    for (const s of servers.splice(0)) await s.close();
    for (const c of cleanups.splice(0)) c();
  });

  test("a session whose setup failed runs the setup again and continues to the end; the model was told the CLI's command", async () => {
    const repo = makeRepo(REPO);
    const data = tempDir("pg-retry-");
    cleanups.push(repo.cleanup, () => rmSync(data, { recursive: true, force: true }));
    const first = await startFakeOpenAI([
      { toolCalls: [{ name: "read_file", arguments: { path: "src/add.js" } }] },
      { toolCalls: [{ name: "submit_plan", arguments: { summary: "make add add", steps: ["fix the operator"] } }] },
      { toolCalls: [{ name: "run_tests", arguments: {} }] },
    ]);
    servers.push(first);
    const env = { OPENAI_API_KEY: "sk-retry", PATCHGATE_DATA_DIR: data, PATCHGATE_MODEL: "fake-model", PATCHGATE_LLM_RETRIES: "0" };
    const run = await cli(["run", "--repo", repo.dir, "--approve-plan", "Fix add"], { ...env, OPENAI_BASE_URL: first.baseURL });
    expect(run.code).toBe(1);
    const sessionId = /session (\S+)/.exec(run.stdout)![1];
    // The model heard how to get the setup run again here: the CLI's command, not GitHub's comment.
    const told = JSON.stringify(first.requests.at(-1)!.body.messages);
    expect(told).toContain(`the user runs \`patchgate retry ${sessionId.slice(0, 8)}\``);
    expect(told).not.toContain("/agent retry");

    writeFileSync(join(data, "workspaces", readdirSync(join(data, "workspaces"))[0], ".git", "pg-setup-ok"), "");
    const second = await startFakeOpenAI([
      { toolCalls: [{ name: "edit_file", arguments: { path: "src/add.js", edits: [{ search: "a - b", replace: "a + b" }] } }] },
      { toolCalls: [{ name: "run_tests", arguments: {} }] },
      { toolCalls: [{ name: "finish", arguments: { summary: "add now adds" } }] },
    ]);
    servers.push(second);
    const retried = await cli(["retry", sessionId.slice(0, 8), "--approve-writes"], { ...env, OPENAI_BASE_URL: second.baseURL });
    expect({ code: retried.code, stderr: retried.stderr }).toEqual({ code: 0, stderr: "" });
    expect(retried.stdout).toContain(`done: branch patchgate/${sessionId.slice(0, 8)}`);
    const events = await cli(["show", sessionId, "--events"], { PATCHGATE_DATA_DIR: data });
    expect(events.stdout.match(/setup_run/g)).toHaveLength(2);
    expect(events.stdout).toContain("setup_retry_requested");
  }, 180_000);
});

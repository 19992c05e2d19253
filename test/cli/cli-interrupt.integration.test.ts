import { readdirSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { HOLDING_TESTS, runCli, spawnCli } from "../helpers/cli-process.js";
import { cliSessions } from "../helpers/cli-sessions.js";
import { BUGGY_ADD_REPO } from "../helpers/git-fixture.js";

describe("Ctrl-C during patchgate run", () => {
  const sessions = cliSessions();

  test("prints how to resume and that nothing was lost, exits 130, and the printed command finishes the session", async () => {
    let data = "";
    const clone = () => join(data, "workspaces", readdirSync(join(data, "workspaces"))[0]);
    const s = await sessions.start(
      [
        { toolCalls: [{ name: "read_file", arguments: { path: "src/add.js" } }] },
        { toolCalls: [{ name: "submit_plan", arguments: { summary: "make add add", steps: ["fix the operator"] } }] },
        { toolCalls: [{ name: "edit_file", arguments: { path: "src/add.js", edits: [{ search: "a - b", replace: "a + b" }] } }] },
        () => {
          writeFileSync(join(clone(), ".git", "pg-hold"), "");
          return { toolCalls: [{ name: "run_tests", arguments: {} }] };
        },
        { toolCalls: [{ name: "finish", arguments: { summary: "add now adds" } }] },
      ],
      { files: { ...BUGGY_ADD_REPO, "test.sh": HOLDING_TESTS }, prefix: "pg-sigint-", key: "sk-sigint" },
    );
    data = s.data;
    const env = s.env;
    const run = await spawnCli(["run", "--repo", s.repo, "--approve-plan", "--approve-writes", "--verbose", "Fix add"], env);
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

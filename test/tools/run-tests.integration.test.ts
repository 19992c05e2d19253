import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_REPO_CONFIG } from "../../src/config/repo-config.js";
import type { Sandbox } from "../../src/sandbox/types.js";
import { runTestsTool } from "../../src/tools/run-tests.js";
import { harnessFactory } from "./helpers/harness-factory.js";
import { bubblewrap } from "./helpers/sandbox.js";
import { config, REPO, write } from "./helpers/run-tests-repo.js";
import { codeOf, dataOf } from "./helpers/tool-harness.js";

describe("run_tests", () => {
  const make = harnessFactory();
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await bubblewrap();
  });

  test("a passing run records test_run with the tree hash it ran on", async () => {
    const h = await make(REPO, { sandbox, repoConfig: config() });
    const tree = await h.workspace.publishedTree([]);
    const { result, events } = await h.call(runTestsTool, {});
    const data = dataOf(result);
    expect([data.command, data.passed, data.exit_code, data.timed_out, data.tree_hash, data.cached, data.stdout, data.stderr]).toEqual([
      "sh test.sh",
      true,
      0,
      false,
      tree,
      false,
      "all good\n",
      "",
    ]);
    expect(data.summary).toBe("exit code 0\nlast lines:\nall good");
    expect(events).toEqual([
      {
        type: "test_run",
        command: "sh test.sh",
        exitCode: 0,
        treeHash: tree,
        durationMs: data.duration_ms,
        timedOut: false,
        summary: data.summary,
        failing: [],
      },
    ]);
    expect(data.warning).toBeUndefined();
  });

  test("a failing run is recorded with its summary", async () => {
    const h = await make({ ...REPO, "ok.txt": "broken\n" }, { sandbox, repoConfig: config() });
    const { result, events } = await h.call(runTestsTool, {});
    const data = dataOf(result);
    expect([data.passed, data.exit_code, data.summary]).toEqual([
      false,
      1,
      "exit code 1\nfailing tests (1):\n- ok.txt says ok\nlast lines:\nTAP version 13\nnot ok 1 - ok.txt says ok\n1..1",
    ]);
    expect([data.framework, data.failures]).toEqual(["tap", [{ name: "ok.txt says ok" }]]);
    expect(events.map((e) => e.type)).toEqual(["test_run"]);
  });

  test("the result leads with the failures the runner names (a real node:test run in the sandbox), then the raw output", async () => {
    const files = {
      "math.test.mjs":
        'import { test } from "node:test";\nimport assert from "node:assert/strict";\ntest("adds", () => assert.equal(1 + 1, 3));\ntest("fine", () => {});\n',
    };
    const h = await make(files, { sandbox, repoConfig: config({ test: "node --test --test-reporter=spec" }) });
    const data = dataOf((await h.call(runTestsTool, {})).result);
    expect(Object.keys(data).slice(0, 5)).toEqual(["command", "passed", "framework", "totals", "failures"]);
    expect([data.framework, data.totals]).toEqual(["node:test", { passed: 1, failed: 1, skipped: 0, total: 2 }]);
    expect(data.failures).toEqual([
      { name: "adds", message: "AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:\n2 !== 3", location: "math.test.mjs:3:27" },
    ]);
    expect(String(data.summary)).toContain(
      "failing tests (1):\n- adds (math.test.mjs:3:27): AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:",
    );
    expect(String(data.stdout)).toContain("✖ adds");
  });

  test("unchanged tree + passing run = no re-run (cached)", async () => {
    const h = await make(REPO, { sandbox, repoConfig: config() });
    const first = dataOf((await h.call(runTestsTool, {})).result);
    const { result, events } = await h.call(runTestsTool, {});
    expect(result).toEqual({
      ok: true,
      data: {
        command: "sh test.sh",
        passed: true,
        exit_code: 0,
        timed_out: false,
        duration_ms: first.duration_ms,
        tree_hash: first.tree_hash,
        summary: first.summary,
        cached: true,
      },
    });
    // Every run the tool made is a test_run: the second call ran nothing.
    expect([events, h.state.testRuns.length]).toEqual([[], 1]);
  });

  test("a changed tree runs again", async () => {
    const h = await make(REPO, { sandbox, repoConfig: config() });
    await h.call(runTestsTool, {});
    write(h, "extra.txt", "new\n");
    const data = dataOf((await h.call(runTestsTool, {})).result);
    expect([data.cached, h.state.testRuns.length]).toEqual([false, 2]);
  });

  test("a failing run is never cached", async () => {
    const h = await make({ ...REPO, "ok.txt": "broken\n" }, { sandbox, repoConfig: config() });
    const first = dataOf((await h.call(runTestsTool, {})).result);
    const second = dataOf((await h.call(runTestsTool, {})).result);
    expect([first.passed, second.passed, second.cached, h.state.testRuns.length]).toEqual([false, false, false, 2]);
  });

  test("what the tests change in files that are not ignored is put back and reported; what they write where git ignores is gone", async () => {
    const script = "echo x > generated.txt; echo changed > ok.txt; rm test.sh; echo run >> runs.log\n";
    const h = await make({ ...REPO, "test.sh": script }, { sandbox, repoConfig: config() });
    const before = await h.workspace.publishedTree([]);
    const { result, events } = await h.call(runTestsTool, {});
    const data = dataOf(result);
    expect([data.passed, data.tree_hash, data.discarded]).toEqual([true, before, ["generated.txt", "ok.txt", "test.sh"]]);
    expect(data.note).toBe(
      "The test run changed generated.txt, ok.txt, test.sh; these changes were discarded (the files are as they were before it ran). Make changes with write_file or edit_file.",
    );
    expect(events.map((e) => e.type)).toEqual(["changes_rolled_back", "test_run"]);
    expect(events[0]).toEqual({ type: "changes_rolled_back", tool: "run_tests", paths: ["generated.txt", "ok.txt", "test.sh"] });
    // The tree is the one the tests ran on, so the run counts; the ignored log went with the run, unreported.
    expect([await h.workspace.treeHash(), readFileSync(join(h.workspace.root, "ok.txt"), "utf8"), existsSync(join(h.workspace.root, "runs.log"))]).toEqual([
      before,
      "ok\n",
      false,
    ]);
    expect(h.state.testRuns.map((r) => r.treeHash)).toEqual([before]);
  });

  test("the session's test command wins over the repository's", async () => {
    const h = await make(REPO, { sandbox, repoConfig: config(), settings: { testCommand: "echo custom" } });
    const { events } = await h.call(runTestsTool, {});
    expect(events.map((e) => (e.type === "test_run" ? e.command : e.type))).toEqual(["echo custom"]);
    expect(runTestsTool.request({}, h.ctx())).toEqual({ kind: "command", tool: "run_tests", argv: ["/bin/sh", "-c", "echo custom"] });
  });

  test("no test command configured → no_test_command", async () => {
    const h = await make(REPO, { sandbox, repoConfig: DEFAULT_REPO_CONFIG });
    expect(codeOf((await h.call(runTestsTool, {})).result)).toBe("no_test_command");
    expect(codeOf((await runTestsTool.execute({}, h.ctx())).result)).toBe("no_test_command");
  });

  test("no sandbox → sandbox_unavailable, nothing recorded", async () => {
    const h = await make(REPO, { sandbox: null, repoConfig: config() });
    const outcome = await runTestsTool.execute({}, h.ctx());
    expect([codeOf(outcome.result), outcome.events]).toEqual(["sandbox_unavailable", undefined]);
  });

  test("it is an execute-mode command whose request is the configured test command", async () => {
    const h = await make(REPO, { sandbox, repoConfig: config() });
    expect([runTestsTool.risk, runTestsTool.modes, runTestsTool.request({}, h.ctx())]).toEqual([
      "command",
      ["execute"],
      { kind: "command", tool: "run_tests", argv: ["/bin/sh", "-c", "sh test.sh"] },
    ]);
    expect(await runTestsTool.preview!({}, h.ctx())).toBe("$ sh test.sh");
  });
});

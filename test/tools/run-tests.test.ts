import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_REPO_CONFIG, type RepoConfig } from "../../src/config/repo-config.js";
import type { Sandbox } from "../../src/sandbox/types.js";
import { contentHash } from "../../src/policy/edit-context.js";
import { runTestsTool } from "../../src/tools/run-tests.js";
import { SETUP_MARKER } from "../../src/tools/support/test-setup.js";
import { harnessFactory } from "./helpers/harness-factory.js";
import { bubblewrap } from "./helpers/sandbox.js";
import { codeOf, dataOf, type ToolHarness } from "./helpers/tool-harness.js";

// test.sh passes while ok.txt says "ok"; it counts its runs in a gitignored file.
const REPO = {
  ".gitignore": "runs.log\n",
  "ok.txt": "ok\n",
  "test.sh":
    'echo run >> runs.log\nif [ "$(cat ok.txt)" = ok ]; then echo "all good"; else printf "TAP version 13\\nnot ok 1 - ok.txt says ok\\n1..1\\n"; exit 1; fi\n',
};
const config = (over: Partial<RepoConfig> = {}): RepoConfig => ({ ...DEFAULT_REPO_CONFIG, test: "sh test.sh", ...over });
/** A write as write_file makes it: the file, and its file_written event. */
const write = (h: ToolHarness, rel: string, content: string) => {
  writeFileSync(join(h.workspace.root, rel), content);
  h.push({ type: "file_written", path: rel, hash: contentHash(content) });
};
const runs = (h: ToolHarness) => readFileSync(join(h.workspace.root, "runs.log"), "utf8").split("\n").filter(Boolean).length;

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
    expect([events, runs(h)]).toEqual([[], 1]);
  });

  test("a changed tree runs again", async () => {
    const h = await make(REPO, { sandbox, repoConfig: config() });
    await h.call(runTestsTool, {});
    write(h, "extra.txt", "new\n");
    const data = dataOf((await h.call(runTestsTool, {})).result);
    expect([data.cached, runs(h), h.state.testRuns.length]).toEqual([false, 2, 2]);
  });

  test("a failing run is never cached", async () => {
    const h = await make({ ...REPO, "ok.txt": "broken\n" }, { sandbox, repoConfig: config() });
    await h.call(runTestsTool, {});
    await h.call(runTestsTool, {});
    expect(runs(h)).toBe(2);
  });

  test("what the tests change in files that are not ignored is put back and reported; ignored outputs stay", async () => {
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
    // The tree is the one the tests ran on, so the run counts; the ignored log is still there.
    expect([await h.workspace.treeHash(), readFileSync(join(h.workspace.root, "ok.txt"), "utf8"), runs(h)]).toEqual([before, "ok\n", 1]);
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

  test("setup runs once, before the first run, and leaves a marker", async () => {
    const h = await make({ ...REPO, ".gitignore": "runs.log\nsetup.log\n" }, { sandbox, repoConfig: config({ setup: "echo setup >> setup.log" }) });
    const { events } = await h.call(runTestsTool, {});
    expect(events.map((e) => e.type)).toEqual(["setup_run", "test_run"]);
    expect(events[0]).toEqual({
      type: "setup_run",
      command: "echo setup >> setup.log",
      exitCode: 0,
      durationMs: (events[0] as { durationMs: number }).durationMs,
      network: false,
      summary: "exit code 0",
      inputDigest: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(existsSync(join(h.workspace.root, SETUP_MARKER))).toBe(true);
    write(h, "extra.txt", "changed\n");
    const second = await h.call(runTestsTool, {});
    expect(second.events.map((e) => e.type)).toEqual(["test_run"]);
    expect(readFileSync(join(h.workspace.root, "setup.log"), "utf8")).toBe("setup\n");
  });

  // Setup runs workspace files (package.json scripts, a Makefile). Once the agent has changed the
  // workspace they may be its own code, which must not get the host's network.
  describe("network_for_setup", () => {
    const networked = config({ setup: "true", sandbox: { ...DEFAULT_REPO_CONFIG.sandbox, network_for_setup: true } });
    const recording = (seen: boolean[]): Sandbox => ({
      backend: sandbox.backend,
      run: (req) => {
        seen.push(req.network === true);
        return sandbox.run(req);
      },
    });

    test("withheld once a write or command has run (latestDiff is set): the setup runs offline and says why", async () => {
      const seen: boolean[] = [];
      const h = await make(REPO, { sandbox: recording(seen), repoConfig: { ...networked, setup: "exit 3" } });
      h.push({ type: "diff_updated", diff: await h.workspace.diff([]) }); // what any workspace-changing tool leaves
      const { result, events } = await h.call(runTestsTool, {});
      expect(seen).toEqual([false]);
      expect(events[0]).toMatchObject({ type: "setup_run", network: false, withheld: { reason: "workspace_changed" } });
      expect(result.ok ? null : result.error.message).toContain(
        "It ran without network access: the session had already changed the workspace, so the setup would run files nobody reviewed.",
      );
    });

    test("given while nothing has changed the workspace", async () => {
      const seen: boolean[] = [];
      const h = await make(REPO, { sandbox: recording(seen), repoConfig: networked });
      const { events } = await h.call(runTestsTool, {});
      expect(seen[0]).toBe(true);
      expect(events[0]).toMatchObject({ type: "setup_run", network: true });
    });
  });

  test("a failing setup is setup_failed: no marker, no test run; the next run answers the recorded failure without running it", async () => {
    const h = await make(REPO, { sandbox, repoConfig: config({ setup: "echo 'npm ERR! missing' >&2; exit 7" }) });
    const { result, events } = await h.call(runTestsTool, {});
    expect(result).toEqual({
      ok: false,
      error: {
        code: "setup_failed",
        message:
          "The repository's setup command `echo 'npm ERR! missing' >&2; exit 7` exited with 7, so the tests were not run. " +
          "It ran without network access (sandbox.network_for_setup is false).\nexit code 7\nlast lines:\nnpm ERR! missing",
        details: { command: "echo 'npm ERR! missing' >&2; exit 7", exit_code: 7, timed_out: false, network: false },
      },
    });
    expect(events.map((e) => e.type)).toEqual(["setup_run"]);
    expect(existsSync(join(h.workspace.root, SETUP_MARKER))).toBe(false);
    const again = await h.call(runTestsTool, {});
    expect(again.events).toEqual([]);
    expect(again.result.ok ? null : again.result.error).toMatchObject({ code: "setup_failed", details: { recorded: true, exit_code: 7 } });
    expect(again.result.ok ? "" : again.result.error.message).toContain(
      "It is not run again until its inputs (manifests, lockfiles, the files it names) change, or a maintainer comments `/agent retry`.",
    );
  });

  // The setup counts its runs in a file it names, so the digest covers that file too: the test
  // changes a lockfile (an input) and an unrelated file (not one).
  describe("a failed setup runs again only when its inputs change or a human asks", () => {
    const failing = config({ setup: "echo setup >> setup.runs; test -f deps.lock" });
    const setupRuns = (h: ToolHarness) => readFileSync(join(h.workspace.root, "setup.runs"), "utf8").split("\n").filter(Boolean).length;
    const FILES = { ...REPO, ".gitignore": "runs.log\nsetup.runs\n", "package.json": '{"name":"x"}\n' };

    test("an unrelated change does not re-run it; a changed manifest does, and its pass is then memoised", async () => {
      const h = await make(FILES, { sandbox, repoConfig: failing });
      expect(codeOf((await h.call(runTestsTool, {})).result)).toBe("setup_failed");
      write(h, "notes.txt", "unrelated\n");
      expect((await h.call(runTestsTool, {})).events).toEqual([]);
      expect(setupRuns(h)).toBe(1);
      write(h, "deps.lock", "locked\n");
      write(h, "package.json", '{"name":"x","version":"1.0.0"}\n');
      const fixed = await h.call(runTestsTool, {});
      expect(fixed.events.map((e) => e.type)).toEqual(["setup_run", "test_run"]);
      expect(dataOf(fixed.result).passed).toBe(true);
      write(h, "notes.txt", "unrelated, again\n");
      expect((await h.call(runTestsTool, {})).events.map((e) => e.type)).toEqual(["test_run"]);
      expect(setupRuns(h)).toBe(2);
    });

    test("setup_retry_requested (/agent retry) runs it again with the same inputs", async () => {
      const h = await make(FILES, { sandbox, repoConfig: failing });
      await h.call(runTestsTool, {});
      h.push({ type: "setup_retry_requested", by: "maintainer" });
      expect(h.state.setup).toBeNull();
      expect((await h.call(runTestsTool, {})).events.map((e) => e.type)).toEqual(["setup_run"]);
      expect(setupRuns(h)).toBe(2);
    });

    test("a passed setup runs again when the workspace no longer holds its output (rebuilt: no marker)", async () => {
      const h = await make({ ...FILES, "deps.lock": "x\n" }, { sandbox, repoConfig: failing });
      await h.call(runTestsTool, {});
      rmSync(join(h.workspace.root, SETUP_MARKER));
      write(h, "notes.txt", "unrelated\n");
      expect((await h.call(runTestsTool, {})).events.map((e) => e.type)).toEqual(["setup_run", "test_run"]);
    });
  });

  test("the run is recorded on the published tree: setup output is not part of it", async () => {
    const h = await make(REPO, { sandbox, repoConfig: config({ setup: "echo lock > deps.lock" }) });
    const base = await h.workspace.publishedTree([]);
    const { events } = await h.call(runTestsTool, {});
    const run = events.find((e) => e.type === "test_run");
    expect(readFileSync(join(h.workspace.root, "deps.lock"), "utf8")).toBe("lock\n");
    expect(run && run.type === "test_run" ? run.treeHash : null).toBe(base);
  });

  test("a file the agent wrote and setup rewrote: the run is recorded on the tree setup left", async () => {
    const h = await make(REPO, { sandbox, repoConfig: config({ setup: "echo rewritten > deps.lock" }) });
    write(h, "deps.lock", "agent's\n");
    const { events } = await h.call(runTestsTool, {});
    const run = events.find((e) => e.type === "test_run");
    expect(run && run.type === "test_run" ? run.treeHash : null).toBe(await h.workspace.publishedTree(["deps.lock"]));
    expect(await h.workspace.publishedTree(["deps.lock"])).not.toBe(await h.workspace.publishedTree([]));
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

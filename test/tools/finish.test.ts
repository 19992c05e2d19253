import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { TestRun } from "../../src/session/types.js";
import { finishTool } from "../../src/tools/finish.js";
import { harnessFactory } from "./helpers/harness-factory.js";
import type { ToolHarness } from "./helpers/tool-harness.js";

const run = (treeHash: string, exitCode: number | null, extra: Partial<TestRun> = {}): TestRun => ({
  command: "sh test.sh",
  exitCode,
  treeHash,
  durationMs: 5,
  timedOut: false,
  summary: "",
  ...extra,
});

describe("finish (test gate)", () => {
  const make = harnessFactory();
  const changed = async (h: ToolHarness) => {
    writeFileSync(join(h.workspace.root, "a.js"), "fixed\n");
    return h.workspace.treeHash();
  };

  test("no test runs at all → tests_not_passed", async () => {
    const h = await make({ "a.js": "bug\n" });
    await changed(h);
    const tree = await h.workspace.treeHash();
    const { result, events } = await h.call(finishTool, { summary: "done" });
    expect(result).toEqual({
      ok: false,
      error: {
        code: "tests_not_passed",
        message: `finish refused: there is no passing test run for the current tree ${tree.slice(0, 12)}. No tests have been run in this session. Call run_tests, fix any failure, and call finish again.`,
        details: { tree_hash: tree, last_run: null },
      },
    });
    expect(events).toEqual([]);
  });

  test("a passing run on another tree hash → tests_not_passed naming that run", async () => {
    const h = await make({ "a.js": "bug\n" });
    const old = await h.workspace.treeHash();
    h.push({ type: "test_run", ...run(old, 0) });
    const tree = await changed(h);
    const { result } = await h.call(finishTool, { summary: "done" });
    expect(result.ok ? null : result.error.message).toBe(
      `finish refused: there is no passing test run for the current tree ${tree.slice(0, 12)}. The last run: \`sh test.sh\` exited with 0 on tree ${old.slice(0, 12)}. The files changed after it. Call run_tests, fix any failure, and call finish again.`,
    );
  });

  test("a failing run on the current tree → tests_not_passed", async () => {
    const h = await make({ "a.js": "bug\n" });
    const tree = await changed(h);
    h.push({ type: "test_run", ...run(tree, 1) });
    const { result } = await h.call(finishTool, { summary: "done" });
    expect(result.ok ? null : [result.error.code, result.error.details]).toEqual(["tests_not_passed", { tree_hash: tree, last_run: run(tree, 1) }]);
  });

  test("a timed-out run with exit 0 does not count", async () => {
    const h = await make({ "a.js": "bug\n" });
    const tree = await changed(h);
    h.push({ type: "test_run", ...run(tree, 0, { timedOut: true }) });
    expect((await h.call(finishTool, { summary: "done" })).result.ok).toBe(false);
  });

  test("a passing run on the current tree → accepted, with diff_updated and finish_accepted", async () => {
    const h = await make({ "a.js": "bug\n" });
    const tree = await changed(h);
    h.push({ type: "test_run", ...run(tree, 0) });
    const { result, events } = await h.call(finishTool, { summary: "fixed a.js" });
    const diff = await h.workspace.diff();
    expect(result).toEqual({ ok: true, data: { accepted: true, tree_hash: tree, files_changed: 1, insertions: 1, deletions: 1 } });
    expect(events).toEqual([
      { type: "diff_updated", diff },
      { type: "finish_accepted", summary: "fixed a.js", treeHash: tree },
    ]);
    expect(diff.patch).toContain("-bug\n+fixed\n");
    expect(h.state.phase).toBe("publishing");
  });

  test("an earlier pass on the current tree counts even if a later failing run exists elsewhere", async () => {
    const h = await make({ "a.js": "bug\n" });
    const tree = await changed(h);
    h.push({ type: "test_run", ...run(tree, 0) }, { type: "test_run", ...run("0".repeat(40), 1) });
    expect((await h.call(finishTool, { summary: "done" })).result.ok).toBe(true);
  });

  test("a pass followed by a failure on the same tree → refused: the newest run on this tree decides", async () => {
    const h = await make({ "a.js": "bug\n" });
    const tree = await changed(h);
    h.push({ type: "test_run", ...run(tree, 0) }, { type: "test_run", ...run(tree, 1) });
    const { result } = await h.call(finishTool, { summary: "done" });
    expect(result.ok ? null : result.error.code).toBe("tests_not_passed");
  });

  test("a failure followed by a pass on the same tree → accepted", async () => {
    const h = await make({ "a.js": "bug\n" });
    const tree = await changed(h);
    h.push({ type: "test_run", ...run(tree, 1) }, { type: "test_run", ...run(tree, 0) });
    expect((await h.call(finishTool, { summary: "done" })).result.ok).toBe(true);
  });
});

import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { DEFAULT_REPO_CONFIG } from "../../src/config/repo-config.js";
import type { TestRun } from "../../src/session/types.js";
import { contentHash } from "../../src/policy/edit-context.js";
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
  // A write as write_file makes it: the file, and its file_written event in the ledger.
  const written = (h: ToolHarness, rel: string, content: string) => {
    writeFileSync(join(h.workspace.root, rel), content);
    h.push({ type: "file_written", path: rel, hash: contentHash(content) });
  };
  const published = (h: ToolHarness) => h.workspace.publishedTree(h.state.publishablePaths);
  const changed = async (h: ToolHarness) => {
    written(h, "a.js", "fixed\n");
    return published(h);
  };

  test("no test runs at all → tests_not_passed", async () => {
    const h = await make({ "a.js": "bug\n" });
    const tree = await changed(h);
    const { result, events } = await h.call(finishTool, { summary: "done" });
    expect(result).toEqual({
      ok: false,
      error: {
        code: "tests_not_passed",
        message: `finish refused: there is no passing test run for the current tree ${tree.slice(0, 12)}. No tests have been run in this session. Call run_tests, fix any failure, and call finish again; if the tests cannot pass for reasons outside the task, call report_blocked.`,
        details: { tree_hash: tree, last_run: null },
      },
    });
    expect(events).toEqual([]);
  });

  test("a passing run on another tree hash → tests_not_passed naming that run", async () => {
    const h = await make({ "a.js": "bug\n" });
    const old = await published(h);
    h.push({ type: "test_run", ...run(old, 0) });
    const tree = await changed(h);
    const { result } = await h.call(finishTool, { summary: "done" });
    expect(result.ok ? null : result.error.message).toBe(
      `finish refused: there is no passing test run for the current tree ${tree.slice(0, 12)}. The last run: \`sh test.sh\` exited with 0 on tree ${old.slice(0, 12)}. The files changed after it. Call run_tests, fix any failure, and call finish again; if the tests cannot pass for reasons outside the task, call report_blocked.`,
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

  test("a passing run on the current tree → accepted, with diff_updated, the test-integrity verdict and finish_accepted", async () => {
    const h = await make({ "a.js": "bug\n" });
    const tree = await changed(h);
    h.push({ type: "test_run", ...run(tree, 0) });
    const { result, events } = await h.call(finishTool, { summary: "fixed a.js" });
    const diff = await h.workspace.diff(["a.js"]);
    expect(result).toEqual({ ok: true, data: { accepted: true, tree_hash: tree, published_paths: ["a.js"], files_changed: 1, insertions: 1, deletions: 1 } });
    expect(events).toEqual([
      { type: "diff_updated", diff },
      {
        type: "integrity_checked",
        treeHash: tree,
        digest: expect.stringMatching(/^[0-9a-f]{64}$/),
        report: { findings: [], detectorsRun: expect.any(Number), testFilesExamined: 0 },
      },
      { type: "finish_accepted", summary: "fixed a.js", treeHash: tree, paths: ["a.js"] },
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

  test("only what the ledger lists is published: a file left behind by setup or a process is not, and needs no test run", async () => {
    const h = await make({ "a.js": "bug\n", "package-lock.json": "{}\n" });
    const tree = await changed(h);
    writeFileSync(join(h.workspace.root, "stray.txt"), "left behind\n");
    writeFileSync(join(h.workspace.root, "package-lock.json"), '{"rewritten": "by npm install"}\n');
    expect(await published(h)).toBe(tree);
    h.push({ type: "test_run", ...run(tree, 0) });
    const { result } = await h.call(finishTool, { summary: "done" });
    expect(result).toMatchObject({ ok: true, data: { published_paths: ["a.js"], files_changed: 1 } });
  });

  test("a written file changed since by something else (setup rewriting it) → written_file_changed", async () => {
    const h = await make({ "a.js": "bug\n" });
    written(h, "a.js", "fixed\n");
    writeFileSync(join(h.workspace.root, "a.js"), "rewritten behind the agent's back\n");
    h.push({ type: "test_run", ...run(await published(h), 0) });
    const { result } = await h.call(finishTool, { summary: "done" });
    expect(result.ok ? null : [result.error.code, result.error.details]).toEqual(["written_file_changed", { paths: ["a.js"] }]);
  });

  // An approved command writes where the file tools may not: the tree that would be pushed is judged as a whole.
  test.each([
    ".github/workflows/evil.yml",
    ".github/patchgate.yml",
    ".gitmodules",
    ".github/actions/setup/action.yml",
    ".husky/pre-commit",
    ".vscode/tasks.json",
    ".claude/settings.json",
  ])("a protected path changed by an approved command (%s) → path_denied, even with a passing run on that tree", async (p) => {
    const h = await make({ "a.js": "bug\n" });
    mkdirSync(dirname(join(h.workspace.root, p)), { recursive: true });
    writeFileSync(join(h.workspace.root, p), "x\n");
    h.push({ type: "command_changed", tool: "run_command", paths: [p] });
    h.push({ type: "test_run", ...run(await published(h), 0) });
    const { result, events } = await h.call(finishTool, { summary: "done" });
    expect(result.ok ? null : [result.error.code, (result.error.details as { path: string }).path]).toEqual(["path_denied", p]);
    expect(events).toEqual([]);
  });

  test("the repository's extra protected paths are judged on the final tree too", async () => {
    const policy = { ...DEFAULT_REPO_CONFIG.policy, protected_paths: ["infra/**"] };
    const h = await make({ "a.js": "bug\n", "infra/prod.tf": "a\n" }, { repoConfig: { ...DEFAULT_REPO_CONFIG, policy } });
    writeFileSync(join(h.workspace.root, "infra/prod.tf"), "b\n");
    h.push({ type: "command_changed", tool: "run_command", paths: ["infra/prod.tf"] });
    h.push({ type: "test_run", ...run(await published(h), 0) });
    const { result } = await h.call(finishTool, { summary: "done" });
    expect(result.ok ? null : result.error.code).toBe("path_denied");
  });

  test("a nested repository an approved command made (a gitlink to git, a directory to publish) → path_denied", async () => {
    const h = await make({ "a.js": "bug\n" });
    const lib = join(h.workspace.root, "lib");
    mkdirSync(lib);
    writeFileSync(join(lib, "b.js"), "tested\n");
    const env = { ...process.env, GIT_AUTHOR_NAME: "a", GIT_AUTHOR_EMAIL: "a@b", GIT_COMMITTER_NAME: "a", GIT_COMMITTER_EMAIL: "a@b" };
    for (const args of [
      ["init", "-q"],
      ["add", "-A"],
      ["commit", "-qm", "inner"],
    ])
      execFileSync("git", args, { cwd: lib, env });
    h.push({ type: "command_changed", tool: "run_command", paths: ["lib"] });
    h.push({ type: "test_run", ...run(await published(h), 0) });
    const { result } = await h.call(finishTool, { summary: "done" });
    expect(result.ok ? null : [result.error.code, result.error.details]).toEqual(["path_denied", { paths: ["lib"], reason: "not_a_file" }]);
  });
});

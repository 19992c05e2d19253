import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { ScriptedLLM } from "../fakes/scripted-llm.js";
import { approvePlan, autoApproveWrites } from "../../src/agent/approvals.js";
import { BUGGY_ADD_REPO } from "../helpers/git-fixture.js";
import { SessionHarness } from "../helpers/session-harness.js";

const cli = { login: "maintainer", via: "cli" as const };

describe("test gate: finish needs a passing run on the exact current tree", () => {
  let h: SessionHarness;
  afterEach(() => h.dispose());

  test("refused, edit, pass, edit again, refused, re-run, accepted", async () => {
    h = await SessionHarness.create(BUGGY_ADD_REPO);
    const finish = { name: "finish", arguments: { summary: "add adds" } };
    const runTests = { name: "run_tests", arguments: {} };
    const llm = new ScriptedLLM([
      { toolCalls: [{ name: "submit_plan", arguments: { summary: "fix", steps: ["fix add"] } }] },
      { toolCalls: [finish] },
      { toolCalls: [runTests] },
      { toolCalls: [{ name: "read_file", arguments: { path: "src/add.js" } }] },
      { toolCalls: [{ name: "edit_file", arguments: { path: "src/add.js", edits: [{ search: "a - b", replace: "a + b" }] } }] },
      { toolCalls: [runTests] },
      { toolCalls: [{ name: "write_file", arguments: { path: "NOTES.md", content: "changed after the run\n" } }] },
      { toolCalls: [finish] },
      { toolCalls: [runTests] },
      { toolCalls: [finish] },
    ]);
    await h.resume(llm);
    await approvePlan(h.ledger, cli, h.ledger.state.planHash!);
    await autoApproveWrites(h.ledger, cli);
    expect(await h.resume(llm)).toEqual({ kind: "ready_to_publish" });

    expect(h.results().map((r) => `${r.tool}:${r.ok ? "ok" : r.code}`)).toEqual([
      "submit_plan:ok",
      "finish:tests_not_passed",
      "run_tests:ok",
      "read_file:ok",
      "edit_file:ok",
      "run_tests:ok",
      "write_file:ok",
      "finish:tests_not_passed",
      "run_tests:ok",
      "finish:ok",
    ]);
    const runs = h.ledger.state.testRuns;
    expect(runs.map((r) => r.exitCode)).toEqual([1, 0, 0]);
    expect(runs[1].treeHash).not.toEqual(runs[2].treeHash);
    expect(runs[2].treeHash).toEqual(await h.workspace.publishedTree(h.ledger.state.publishablePaths));
    expect(h.ledger.state.phase).toBe("publishing");
  });

  test("a file the agent wrote, changed behind its back after the passing run, makes finish refuse", async () => {
    h = await SessionHarness.create({ ...BUGGY_ADD_REPO, "src/add.js": "export function add(a, b) {\n  return a + b;\n}\n" });
    const llm = new ScriptedLLM([
      { toolCalls: [{ name: "submit_plan", arguments: { summary: "check", steps: ["note", "run tests"] } }] },
      { toolCalls: [{ name: "write_file", arguments: { path: "NOTES.md", content: "reviewed\n" } }] },
      { toolCalls: [{ name: "run_tests", arguments: {} }] },
      () => {
        appendFileSync(join(h.workspace.root, "NOTES.md"), "tampered\n");
        return { toolCalls: [{ name: "finish", arguments: { summary: "done" } }] };
      },
    ]);
    await h.resume(llm);
    await approvePlan(h.ledger, cli, h.ledger.state.planHash!);
    await autoApproveWrites(h.ledger, cli);
    await h.resume(llm);
    expect(
      h
        .results()
        .slice(-2)
        .map((r) => `${r.tool}:${r.ok ? "ok" : r.code}`),
    ).toEqual(["run_tests:ok", "finish:written_file_changed"]);
  });

  test("a file the agent never wrote, changed after the passing run, is not published: finish is accepted without it", async () => {
    h = await SessionHarness.create({ ...BUGGY_ADD_REPO, "src/add.js": "export function add(a, b) {\n  return a + b;\n}\n" });
    const llm = new ScriptedLLM([
      { toolCalls: [{ name: "submit_plan", arguments: { summary: "check", steps: ["run tests"] } }] },
      { toolCalls: [{ name: "run_tests", arguments: {} }] },
      () => {
        appendFileSync(join(h.workspace.root, "README.md"), "tampered\n");
        return { toolCalls: [{ name: "finish", arguments: { summary: "done" } }] };
      },
    ]);
    await h.resume(llm);
    await approvePlan(h.ledger, cli, h.ledger.state.planHash!);
    expect(await h.resume(llm)).toEqual({ kind: "ready_to_publish" });
    expect([h.ledger.state.finishedPaths, h.ledger.state.finishedTree]).toEqual([[], await h.workspace.publishedTree([])]);
  });
});

import { type Harness } from "../../src/demo/harness.js";
import { STORY_FILES, storySteps } from "../../src/demo/story.js";
import { Ledger } from "../../src/store/ledger.js";
import { storyHarness, theCheckRun } from "./helpers.js";

/**
 * A repository whose default branch already fails one test ("legacy date parsing"). The task's own
 * test ("add adds") fails until the fix. TAP lines name both, so the baseline records them by name.
 */
const TESTS = `echo "TAP version 13"; echo "1..2"
if grep -q "a + b" src/add.js; then echo "ok 1 - add adds"; else echo "not ok 1 - add adds"; fi
echo "not ok 2 - legacy date parsing"
exit 1
`;
const config = (gate: string) => `test: sh test.sh\ngate: ${gate}\nsandbox:\n  backend: bubblewrap\n`;

const read = { toolCalls: [{ name: "read_file", arguments: { path: "src/add.js" } }] };
const plan = { toolCalls: [{ name: "submit_plan", arguments: { summary: "Fix add().", steps: ["Fix the operator"] } }] };
const edit = { toolCalls: [{ name: "edit_file", arguments: { path: "src/add.js", edits: [{ search: "a - b", replace: "a + b" }] } }] };
const tests = { toolCalls: [{ name: "run_tests", arguments: {} }] };
const finish = { toolCalls: [{ name: "finish", arguments: { summary: "add() adds." } }] };
const BLOCKED_REASON = "add() is fixed and its test passes, but `legacy date parsing` already fails on the default branch, so the suite cannot pass. Fix or skip that test, or use gate: no_new_failures.";

describe("a baseline with one pre-existing failure", () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  async function session(gate: string, script: unknown[]): Promise<{ h: Harness; ledger: Ledger }> {
    const files = { ...STORY_FILES, ".github/patchgate.yml": config(gate), "test.sh": TESTS };
    h = await storyHarness({ script: script as never, files });
    h.github.world.files.set(".github/patchgate.yml", config(gate));
    await storySteps.ask(h);
    await storySteps.approvePlan(h);
    await storySteps.approveWrites(h);
    const [{ id }] = await h.app.deps.store.list();
    return { h, ledger: await Ledger.open(h.app.deps.store, id) };
  }

  test("all_pass: finish is refused, the agent reports blocked: check run action_required, a comment says why, nothing pushed", async () => {
    const { h, ledger } = await session("all_pass", [read, plan, edit, tests, finish, { toolCalls: [{ name: "report_blocked", arguments: { reason: BLOCKED_REASON } }] }]);
    expect(ledger.state.phase).toBe("blocked");
    expect(ledger.state.baseline).toMatchObject({ exitCode: 1, failing: ["add adds", "legacy date parsing"] });
    const refused = ledger.history.find((e) => e.type === "tool_result" && e.tool === "finish");
    expect(refused?.type === "tool_result" && !refused.result.ok && refused.result.error.code).toBe("tests_not_passed");
    expect(ledger.history.at(-1)).toMatchObject({ type: "session_blocked", reason: "reported_by_agent", message: BLOCKED_REASON });
    expect(theCheckRun(h)).toMatchObject({ status: "completed", conclusion: "action_required" });
    const ended = h.github.world.comments.at(-1)!.body;
    expect(ended).toContain("⛔ The agent reports that it cannot finish this task (`reported_by_agent`)");
    expect(ended).toContain("already fails on the default branch");
    expect(ended).toContain("Baseline, before any change: `sh test.sh` failed (exit 1); failing already: `add adds`, `legacy date parsing`.");
    expect(ended).toContain("src/add.js");
    // The draft PR still has only the plan's commit: the untested tree was not pushed.
    expect(h.github.world.pulls[0].draft).toBe(true);
    expect(h.app.errors).toEqual([]);
  }, 240_000);

  test("no_new_failures: finish is accepted, and the PR body and check run list the pre-existing failure", async () => {
    const { h, ledger } = await session("no_new_failures", [read, plan, edit, tests, finish]);
    expect(ledger.state.phase).toBe("done");
    const run = ledger.state.testRuns.at(-1)!;
    expect([run.exitCode, run.failing]).toEqual([1, ["legacy date parsing"]]);
    expect(ledger.history.find((e) => e.type === "finish_accepted")).toMatchObject({ preExisting: ["legacy date parsing"] });
    const body = h.github.world.pulls[0].body ?? "";
    expect(body).toContain("### Pre-existing test failures");
    expect(body).toContain("- `legacy date parsing`");
    const summary = theCheckRun(h).output.summary ?? "";
    expect(summary).toContain("⚠ Accepted with 1 pre-existing failure");
    expect(summary).toContain("`legacy date parsing`");
    expect(summary).toContain("Baseline (before any change");
    expect(h.app.errors).toEqual([]);
  }, 240_000);

  test("no_new_failures still refuses a failure the base tree did not have", async () => {
    const breaks = { toolCalls: [{ name: "edit_file", arguments: { path: "src/add.js", edits: [{ search: "a - b", replace: "a * b" }] } }] };
    const TESTS_PASSING_BEFORE = 'echo "TAP version 13"; echo "1..1"\nif grep -q "a \\\\* b" src/add.js; then echo "not ok 1 - add adds"; exit 1; fi\necho "ok 1 - add adds"\n';
    const files = { ...STORY_FILES, ".github/patchgate.yml": config("no_new_failures"), "test.sh": TESTS_PASSING_BEFORE };
    h = await storyHarness({ script: [read, plan, breaks, tests, finish, { toolCalls: [{ name: "report_blocked", arguments: { reason: "cannot" } }] }] as never, files });
    h.github.world.files.set(".github/patchgate.yml", config("no_new_failures"));
    await storySteps.ask(h);
    await storySteps.approvePlan(h);
    await storySteps.approveWrites(h);
    const [{ id }] = await h.app.deps.store.list();
    const ledger = await Ledger.open(h.app.deps.store, id);
    const refused = ledger.history.find((e) => e.type === "tool_result" && e.tool === "finish");
    expect(refused?.type === "tool_result" && !refused.result.ok && refused.result.error.message).toContain("With gate no_new_failures: all tests passed on the base tree; now failing: add adds.");
    expect(ledger.state.phase).toBe("blocked");
  }, 240_000);
});

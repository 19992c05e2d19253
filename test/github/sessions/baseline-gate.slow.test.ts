import { execFileSync } from "node:child_process";
import { readBranch } from "../../fakes/git/bare-repo.js";
import { type Harness } from "../../harness/harness.js";
import { STORY_FILES, storySteps } from "../../harness/story.js";
import { Ledger } from "../../../src/store/ledger.js";
import { storyHarness, theCheckRun } from "../../harness/story-helpers.js";

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
const BLOCKED_REASON =
  "add() is fixed and its test passes, but `legacy date parsing` already fails on the default branch, so the suite cannot pass. Fix or skip that test, or use gate: no_new_failures.";

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

  test("all_pass: finish is refused, the agent reports blocked: the untested work reaches the draft PR, check run action_required naming the failures, a comment says why and where", async () => {
    const { h, ledger } = await session("all_pass", [
      read,
      plan,
      edit,
      tests,
      finish,
      { toolCalls: [{ name: "report_blocked", arguments: { reason: BLOCKED_REASON } }] },
      read,
      plan,
    ]);
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
    // The work so far is on the draft PR's branch, one commit on the plan's, marked untested; the PR stays a draft.
    const work = ledger.state.blocked?.work;
    expect(work).toMatchObject({ pushed: true, branch: "patchgate/issue-1", failing: ["legacy date parsing"] });
    const head = readBranch(h.bare, "patchgate/issue-1")!;
    expect(work?.pushed && work.commit).toBe(head.sha);
    expect(head.files["src/add.js"]).toBe("export function add(a, b) {\n  return a + b;\n}\n");
    const git = (...args: string[]) => execFileSync("git", ["--git-dir", h.bare, ...args], { encoding: "utf8" }).trim();
    expect(git("rev-list", "--count", "main..patchgate/issue-1")).toBe("2");
    expect(git("log", "-1", "--format=%B", head.sha)).toMatch(
      /^Untested work so far: .*\n\nThe agent reported that it cannot finish; the tests did not pass on this tree \(failing: legacy date parsing\)/,
    );
    expect(git("diff-tree", "--no-commit-id", "--name-only", "-r", head.sha)).toBe("src/add.js");
    expect(ended).toContain(`Work so far, **untested**, pushed to the draft pull request's branch \`patchgate/issue-1\` as \`${head.sha.slice(0, 12)}\``);
    const pr = h.github.world.pulls[0];
    expect(pr.draft).toBe(true);
    expect(pr.body).toContain("## Blocked — untested work so far (draft)");
    expect(pr.body).toContain("**Untested.**");
    expect(pr.body).toContain("Failing: `legacy date parsing`");
    const run = theCheckRun(h);
    expect(run.head_sha).toBe(head.sha);
    expect(run.output.summary).toContain("untested");
    expect(run.output.summary).toContain("`legacy date parsing`");

    // `/agent retry` continues from the pushed work: the next session starts at that commit, and its plan goes on top.
    await h.send("issue_comment", h.payloads.comment({ number: 1, title: "add() subtracts", body: "/agent retry", by: "maintainer" }));
    await h.settle();
    const next = (await h.app.deps.store.list()).find((x) => x.id !== ledger.sessionId)!;
    const again = await Ledger.open(h.app.deps.store, next.id);
    expect(again.state.phase).toBe("awaiting_plan_approval");
    expect(again.state.baseCommit).toBe(head.sha);
    expect(git("rev-list", "main..patchgate/issue-1").split("\n")).toHaveLength(3);
    expect(git("merge-base", "--is-ancestor", head.sha, "patchgate/issue-1")).toBe("");
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
    const TESTS_PASSING_BEFORE =
      'echo "TAP version 13"; echo "1..1"\nif grep -q "a \\\\* b" src/add.js; then echo "not ok 1 - add adds"; exit 1; fi\necho "ok 1 - add adds"\n';
    const files = { ...STORY_FILES, ".github/patchgate.yml": config("no_new_failures"), "test.sh": TESTS_PASSING_BEFORE };
    h = await storyHarness({
      script: [read, plan, breaks, tests, finish, { toolCalls: [{ name: "report_blocked", arguments: { reason: "cannot" } }] }] as never,
      files,
    });
    h.github.world.files.set(".github/patchgate.yml", config("no_new_failures"));
    await storySteps.ask(h);
    await storySteps.approvePlan(h);
    await storySteps.approveWrites(h);
    const [{ id }] = await h.app.deps.store.list();
    const ledger = await Ledger.open(h.app.deps.store, id);
    const refused = ledger.history.find((e) => e.type === "tool_result" && e.tool === "finish");
    expect(refused?.type === "tool_result" && !refused.result.ok && refused.result.error.message).toContain(
      "With gate no_new_failures: all tests passed on the base tree; now failing: add adds.",
    );
    expect(ledger.state.phase).toBe("blocked");
  }, 240_000);
});

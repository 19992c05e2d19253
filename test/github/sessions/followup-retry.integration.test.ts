import { readBranch } from "../../fakes/git/bare-repo.js";
import { type Harness } from "../../harness/harness.js";
import { ISSUE, storyScript, storySteps } from "../../harness/story.js";
import { Ledger } from "../../../src/store/ledger.js";
import { outage, theCheckRun, storyHarness } from "../../harness/story-helpers.js";

const SUB = "export function sub(a, b) {\n  return a - b;\n}\n";

describe("a follow-up `/agent <instruction>` on the finished PR", () => {
  let h: Harness;
  beforeAll(async () => {
    const followUp = [
      { toolCalls: [{ name: "submit_plan", arguments: { summary: "Add sub().", steps: ["Create src/sub.js"] } }] },
      { toolCalls: [{ name: "write_file", arguments: { path: "src/sub.js", content: SUB } }] },
      { toolCalls: [{ name: "run_tests", arguments: {} }] },
      { toolCalls: [{ name: "finish", arguments: { summary: "Added sub()." } }] },
    ];
    h = await storyHarness({ script: [...storyScript(), ...followUp] });
    await storySteps.ask(h);
    await storySteps.approvePlan(h);
    await storySteps.approveWrites(h);
  });
  afterAll(() => h.close());

  test("runs a new session on the same branch and updates the same PR", async () => {
    const first = readBranch(h.bare, "patchgate/issue-1")!;
    await h.send("issue_comment", h.payloads.comment({ number: 2, pr: true, body: "/agent add a sub() function", by: "maintainer" }));
    await h.settle();
    await h.send("issue_comment", h.payloads.comment({ number: 2, pr: true, body: "/agent approve", by: "maintainer" }));
    await h.settle();
    await h.send("issue_comment", h.payloads.comment({ number: 2, pr: true, body: "/agent approve", by: "maintainer" }));
    await h.settle();

    const sessions = await h.app.deps.store.list();
    expect(sessions.map((s) => s.phase)).toEqual(["done", "done"]);
    const followUp = await Ledger.open(h.app.deps.store, sessions[0].id);
    expect(followUp.state.baseCommit).toBe(first.sha);
    expect(followUp.state.task.body).toBe("Instruction from @maintainer: add a sub() function");
    const head = readBranch(h.bare, "patchgate/issue-1")!;
    expect(head.files["src/sub.js"]).toBe(SUB);
    expect(head.files["src/add.js"]).toBe("export function add(a, b) {\n  return a + b;\n}\n");
    expect(h.github.world.pulls).toHaveLength(1);
    // Each session: base (moved), plan commit (moved), final commit (success). The follow-up starts on
    // the first session's final commit, so that sha has one run from each session.
    const plan2 = readBranch(h.bare, "patchgate/issue-1")!.parents[0];
    const runs = h.github.world.checkRuns.map((c) => [c.head_sha, c.conclusion]);
    expect(runs.slice(3)).toEqual([
      [first.sha, "neutral"],
      [plan2, "neutral"],
      [head.sha, "success"],
    ]);
    expect(runs[2]).toEqual([first.sha, "success"]);
    expect(runs.slice(0, 2).map((r) => r[1])).toEqual(["neutral", "neutral"]);
    expect(h.app.errors).toEqual([]);
  });
});

describe("`/agent retry` after a failure", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await storyHarness({ script: [{ error: { status: 400, message: "bad request" } }, ...storyScript()] });
  });
  afterAll(() => h.close());

  test("the failure completes the check run as failure with the reason and tells the issue", async () => {
    await storySteps.ask(h);
    expect(h.github.world.checkRuns).toHaveLength(1); // nothing was pushed: it stays on the base commit
    expect(h.github.world.checkRuns[0]).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(h.github.world.checkRuns[0].output.summary).toMatch(/^\*\*❌ Failed\*\* — the model provider failed \(`llm_error`\): /);
    expect(h.github.world.comments.at(-1)!.body).toMatch(/^❌ The session failed: `llm_error` — /);
  });

  test("retry starts a new session on the same task, which reaches the plan", async () => {
    await h.send("issue_comment", h.payloads.comment({ number: 1, title: ISSUE.title, body: "/agent retry", by: "maintainer" }));
    await h.settle();
    const sessions = await h.app.deps.store.list();
    expect(sessions.map((s) => s.phase)).toEqual(["awaiting_plan_approval", "failed"]);
    const [fresh, old] = await Promise.all(sessions.map((s) => Ledger.open(h.app.deps.store, s.id)));
    // The same task; only what started it differs (the retry comment, not the first one).
    expect({ ...fresh.state.task, source: { ...fresh.state.task.source, trigger: "" } }).toEqual({
      ...old.state.task,
      source: { ...old.state.task.source, trigger: "" },
    });
    expect(h.github.world.pulls).toHaveLength(1);
    expect(h.app.errors).toEqual([]);
  });
});

describe("`/agent retry` after a failure while executing", () => {
  let h: Harness;
  beforeAll(async () => {
    const [read, plan, ...execute] = storyScript();
    h = await storyHarness({ script: [read, plan, { error: { status: 400, message: "bad request" } }, ...execute] });
  });
  afterAll(() => h.close());

  test("continues the same session where it failed: the plan stays approved, no new plan, one PR, done", async () => {
    await storySteps.ask(h);
    await storySteps.approvePlan(h);
    const [failed] = await h.app.deps.store.list();
    expect(failed.phase).toBe("failed");
    expect(h.github.world.comments.at(-1)!.body).toContain("`/agent retry` continues from where it stopped, with the plan still approved.");

    await h.send("issue_comment", h.payloads.comment({ number: 1, title: ISSUE.title, body: "/agent retry", by: "maintainer" }));
    await h.settle();
    await storySteps.approveWrites(h);

    const sessions = await h.app.deps.store.list();
    expect(sessions.map((s) => [s.id, s.phase])).toEqual([[failed.id, "done"]]);
    const ledger = await Ledger.open(h.app.deps.store, failed.id);
    expect(ledger.history.filter((e) => e.type === "plan_approved")).toHaveLength(1);
    expect(ledger.history.find((e) => e.type === "session_reopened")).toMatchObject({ by: "maintainer", phase: "executing" });
    expect(h.github.world.pulls).toHaveLength(1);
    expect(readBranch(h.bare, "patchgate/issue-1")!.files["src/add.js"]).toBe("export function add(a, b) {\n  return a + b;\n}\n");
    expect(h.openai.remaining()).toBe(0);
    expect(h.app.errors).toEqual([]);
  });
});

describe("`/agent retry` after GitHub failed mid-publication", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await storyHarness();
  });
  afterAll(() => h.close());

  test("the failure is reported on the issue; retry publishes the parked plan without a second session or PR", async () => {
    outage(h, "POST", "/repos/octo-org/calculator/pulls", 502);
    await storySteps.ask(h);
    expect(h.github.world.pulls).toEqual([]);
    expect(h.github.world.comments.at(-1)!.body).toMatch(
      /^Patchgate hit an error and stopped here: .*\n\n`\/agent retry` continues from the last checkpoint\./,
    );
    expect(h.app.errors).toHaveLength(1);

    await h.send("issue_comment", h.payloads.comment({ number: 1, body: "/agent retry", by: "maintainer" }));
    await h.settle();
    expect(h.github.world.pulls).toHaveLength(1);
    expect(h.github.world.pulls[0].draft).toBe(true);
    // The first attempt pushed a plan commit before the PR failed; the retry adopts that commit
    // (plan_commit:<hash>) instead of committing the plan again. One run per head — the base's,
    // moved on, and the plan commit's — and only the one on the PR's head is live.
    expect(h.github.world.checkRuns).toHaveLength(2);
    expect(readBranch(h.bare, "patchgate/issue-1")!.parents).toHaveLength(1);
    expect(theCheckRun(h)).toMatchObject({ status: "in_progress", head_sha: readBranch(h.bare, "patchgate/issue-1")!.sha });
    expect(await h.app.deps.store.list()).toHaveLength(1);
    expect(h.github.world.comments.at(-1)!.body).toMatch(/^📋 The plan `[0-9a-f]{12}` is ready for review/);
    expect(h.openai.requests).toHaveLength(2); // the retry did not call the model again
  });
});

import { readBranch } from "../../fakes/git/bare-repo.js";
import { type Harness } from "../../harness/harness.js";
import { storyScript, storySteps } from "../../harness/story.js";
import { Ledger } from "../../../src/store/ledger.js";
import { pushHumanCommit } from "../../fakes/human-push.js";
import { storyHarness, theCheckRun } from "../../harness/story-helpers.js";

const BRANCH = "patchgate/issue-1";
const FIXED = "export function add(a, b) {\n  return a + b;\n}\n";

async function onlySession(h: Harness) {
  return Ledger.open(h.app.deps.store, (await h.app.deps.store.list())[0].id);
}

/** After a rebuild the model is told the tests must pass again on the new tree: it runs them and finishes. */
const AGAIN = [
  { toolCalls: [{ name: "run_tests", arguments: {} }] },
  { toolCalls: [{ name: "finish", arguments: { summary: "add() adds; the tests pass on top of the maintainer's commit." } }] },
];

describe("a maintainer's commit on the session's branch, before the result is published", () => {
  let h: Harness;
  let human: string;
  beforeAll(async () => {
    h = await storyHarness({ script: [...storyScript(), ...AGAIN] });
    await storySteps.ask(h);
    await storySteps.approvePlan(h);
    human = pushHumanCommit(h.bare, BRANCH, { "docs/NOTES.md": "Notes from the maintainer.\n" });
    await storySteps.approveWrites(h);
  });
  afterAll(() => h.close());

  test("survives: the change is rebuilt on top of it, tested again, and pushed as a fast-forward", async () => {
    const head = readBranch(h.bare, BRANCH)!;
    expect(head.parents).toEqual([human]);
    expect(head.files["docs/NOTES.md"]).toBe("Notes from the maintainer.\n");
    expect(head.files["src/add.js"]).toBe(FIXED);
    const ledger = await onlySession(h);
    expect(ledger.state.phase).toBe("done");
    const rebased = ledger.history.filter((e) => e.type === "branch_rebased");
    expect(rebased).toMatchObject([{ branch: BRANCH, onto: human, foreign: [human] }]);
    // The gate bound to the new tree: a second, passing run on a different tree, and finish on it.
    const runs = ledger.state.testRuns;
    expect(runs).toHaveLength(2);
    expect(runs[1].treeHash).not.toBe(runs[0].treeHash);
    expect(ledger.state.finishedTree).toBe(runs[1].treeHash);
    expect(ledger.state.baseCommit).toBe(human);
    expect(theCheckRun(h)).toMatchObject({ head_sha: head.sha, conclusion: "success" });
    expect(h.app.errors).toEqual([]);
  });

  test("every push is recorded in the ledger; none was a force push over someone else's commit", async () => {
    const pushes = (await onlySession(h)).history.filter((e) => e.type === "branch_pushed").map((e) => (e as { commit: string }).commit);
    expect(pushes).toHaveLength(2); // the plan, then the result on top of the maintainer's commit
    expect(pushes.at(-1)).toBe(readBranch(h.bare, BRANCH)!.sha);
  });
});

describe("a maintainer's commit that conflicts with the session's change", () => {
  let h: Harness;
  let human: string;
  beforeAll(async () => {
    h = await storyHarness();
    await storySteps.ask(h);
    await storySteps.approvePlan(h);
    human = pushHumanCommit(h.bare, BRANCH, { "src/add.js": "export function add(a, b) {\n  return b + a;\n}\n" });
    await storySteps.approveWrites(h);
  });
  afterAll(() => h.close());

  test("stops the session with a comment and a failed check run; the branch is left as the maintainer pushed it", async () => {
    expect(readBranch(h.bare, BRANCH)!.sha).toBe(human);
    const s = (await onlySession(h)).state;
    expect(s.phase).toBe("failed");
    expect(s.failure?.reason).toBe("branch_conflict");
    expect(s.failure?.message).toContain(
      `${BRANCH} has commits Patchgate did not make (${human.slice(0, 7)}) and the session's change conflicts with them (src/add.js)`,
    );
    expect(h.github.world.comments.at(-1)!.body).toMatch(/^❌ The session failed: `branch_conflict`/);
    expect(h.github.world.checkRuns.at(-1)).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(h.app.errors).toEqual([]);
  });
});

describe("a branch name that something else already holds", () => {
  let h: Harness;
  let theirs: string;
  beforeAll(async () => {
    h = await storyHarness();
    theirs = pushHumanCommit(h.bare, BRANCH, { "unrelated.txt": "someone else's work\n" }, { from: "main" });
    await storySteps.ask(h);
  });
  afterAll(() => h.close());

  test("is left alone; the session publishes on the next free name", async () => {
    expect(readBranch(h.bare, BRANCH)!.sha).toBe(theirs);
    const ours = readBranch(h.bare, `${BRANCH}-2`)!;
    expect(ours.message).toMatch(/^Plan [0-9a-f]{12} for #1/);
    expect(h.github.world.pulls.map((p) => p.head.ref)).toEqual([`${BRANCH}-2`]);
    expect((await onlySession(h)).state.lease).toMatchObject({ branch: `${BRANCH}-2`, head: ours.sha });
    expect(h.app.errors).toEqual([]);
  });
});

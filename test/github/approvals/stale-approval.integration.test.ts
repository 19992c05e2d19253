import { readBranch } from "../../fakes/git/bare-repo.js";
import { startHarness, type Harness } from "../../harness/harness.js";
import { STORY_FILES, STORY_PERMISSIONS, storySteps } from "../../harness/story.js";
import { Ledger } from "../../../src/store/ledger.js";
import { callLines, MINT, R, theCheckRun } from "../../harness/story-helpers.js";

const V1 = { summary: "Fix the operator.", steps: ["Change `-` to `+`"] };
const V2 = { summary: "Fix the operator and test negatives.", steps: ["Change `-` to `+`", "Add a negative case to test.sh"] };

describe("approvals are bound to the plan they approve", () => {
  let h: Harness;
  let v1Commit: string;
  let v1Id: string;
  let v1RunId: number;
  beforeAll(async () => {
    h = await startHarness({
      script: [
        { toolCalls: [{ name: "submit_plan", arguments: V1 }] },
        { toolCalls: [{ name: "submit_plan", arguments: V2 }] },
        { toolCalls: [{ name: "write_file", arguments: { path: "NOTES.md", content: "negatives\n" } }] },
      ],
      files: STORY_FILES,
      permissions: STORY_PERMISSIONS,
    });
    h.github.world.files.set(".github/patchgate.yml", STORY_FILES[".github/patchgate.yml"]);
    await storySteps.ask(h);
    v1Commit = readBranch(h.bare, "patchgate/issue-1")!.sha;
    const v1Run = theCheckRun(h);
    expect(v1Run.head_sha).toBe(v1Commit);
    [v1Id, v1RunId] = [v1Run.actions[0].identifier, v1Run.id];
    await h.send("issue_comment", h.payloads.comment({ number: 2, pr: true, body: "/agent revise also cover negative numbers", by: "maintainer" }));
    await h.settle();
  });
  afterAll(() => h.close());

  const phase = async () => (await Ledger.open(h.app.deps.store, (await h.app.deps.store.list())[0].id)).state;

  test("`/agent revise` sends the feedback back; the new plan updates the same PR with a new commit", async () => {
    const s = await phase();
    expect(s.phase).toBe("awaiting_plan_approval");
    expect(s.plan).toEqual(V2);
    expect(h.github.world.pulls).toHaveLength(1);
    expect(h.github.world.pulls[0].body).toContain("Add a negative case to test.sh");
    expect(readBranch(h.bare, "patchgate/issue-1")!.parents).toEqual([v1Commit]);
    expect(JSON.stringify(h.openai.requests[1].body.messages)).toContain("also cover negative numbers");
  });

  test("a review Approve on the old plan's commit is refused with a comment, and nothing else happens", async () => {
    const before = h.github.world.calls.length;
    const llm = h.openai.requests.length;
    await h.send("pull_request_review", h.payloads.review({ pr: 2, state: "approved", body: "", by: "reviewer", commitId: v1Commit }));
    await h.settle();
    expect(callLines(h, before)).toEqual([`GET ${R}/pulls/2/reviews/1013`, `GET ${R}/collaborators/reviewer/permission`, MINT, `POST ${R}/issues/2/comments`]);
    const s = await phase();
    expect(h.github.world.comments.at(-1)!.body.split("\n")[0]).toBe(
      `That approval is for plan \`${v1Id.slice(8)}\`, but the current one is \`${s.planHash!.slice(0, 12)}\`. Nothing was approved — please look at the current plan and approve again.`,
    );
    expect(s.phase).toBe("awaiting_plan_approval");
    expect(s.approvedPlanHash).toBeNull();
    expect(h.openai.requests.length).toBe(llm);
  });

  test("the old plan's Approve plan button is refused the same way", async () => {
    // The v2 commit has its own run with v2's button; v1's run was closed as moved, without a button.
    const run = theCheckRun(h);
    expect(run.head_sha).toBe(readBranch(h.bare, "patchgate/issue-1")!.sha);
    expect(run.actions[0].identifier).not.toBe(v1Id);
    expect(h.github.world.checkRuns.find((c) => c.id === v1RunId)).toMatchObject({ status: "completed", conclusion: "neutral", actions: [] });
    // A press that GitHub delivers from the v1 run (a page loaded before the move) still finds the session.
    await h.send("check_run", h.payloads.checkRunAction({ checkRunId: v1RunId, identifier: v1Id, by: "maintainer" }));
    await h.settle();
    expect(h.github.world.comments.at(-1)!.body).toMatch(/^That approval is for plan `[0-9a-f]{12}`, but the current one is/);
    expect(h.github.world.comments.at(-1)!.issue_number).toBe(1);
    expect((await phase()).approvedPlanHash).toBeNull();
  });

  test("`/agent approve <old hash>` is refused; `/agent deny` with no batch is explained", async () => {
    await h.send("issue_comment", h.payloads.comment({ number: 2, pr: true, body: `/agent approve ${v1Id.slice(8)}`, by: "maintainer" }));
    await h.send("issue_comment", h.payloads.comment({ number: 2, pr: true, body: "/agent deny not like this", by: "maintainer" }));
    await h.settle();
    const [stale, deny] = h.github.world.comments.slice(-2).map((c) => c.body.split("\n")[0]);
    expect(stale).toMatch(/^That approval is for plan/);
    expect(deny).toBe("There is no batch of writes to deny (phase `awaiting_plan_approval`). To change the plan use `/agent revise <feedback>`.");
    expect((await phase()).approvedPlanHash).toBeNull();
    expect(h.app.errors).toEqual([]);
  });

  test("the current plan's Approve plan button approves it, recorded as via check_run", async () => {
    const run = theCheckRun(h);
    await h.send("check_run", h.payloads.checkRunAction({ checkRunId: run.id, identifier: run.actions[0].identifier, by: "maintainer" }));
    await h.settle();
    const s = await phase();
    expect(s.approvedPlanHash).toBe(s.planHash);
    expect(s.phase).toBe("awaiting_write_approval");
    const ledger = await Ledger.open(h.app.deps.store, s.sessionId);
    expect(ledger.history.find((e) => e.type === "plan_approved")).toMatchObject({ hash: s.planHash, by: { login: "maintainer", via: "check_run" } });
    expect(h.app.errors).toEqual([]);
  });
});

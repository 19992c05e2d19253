import { rmSync } from "node:fs";
import { readBranch } from "../../fakes/git/bare-repo.js";
import { type Harness } from "../../harness/harness.js";
import { storySteps } from "../../harness/story.js";
import { callLines, MINT, R, signedResultPush, theCheckRun, storyHarness } from "../../harness/story-helpers.js";

const FIXED = "export function add(a, b) {\n  return a + b;\n}\n";

/**
 * A restart between plan approval and write approval: the app and its store object are closed and a
 * new Probot with a new store object opens the same SQLite file. Nothing of the session is in memory.
 */
describe.each([
  ["the clone survives on disk", false],
  ["the clone is gone (a new machine): rebuilt from the base commit and the ledger", true],
])("restart, %s", (_name, dropClone) => {
  let h: Harness;
  beforeAll(async () => {
    h = await storyHarness();
  });
  afterAll(() => h.close());

  test("finishes with exactly one PR and one check run per head, the last completed `success` on the pushed commit", async () => {
    await storySteps.ask(h);
    await storySteps.approvePlan(h);
    const planRun = theCheckRun(h);
    expect(planRun.head_sha).toBe(readBranch(h.bare, "patchgate/issue-1")!.sha); // the plan commit, the PR's head
    const workspaces = h.app.deps.workspacesDir;
    await h.restart();
    if (dropClone) rmSync(workspaces, { recursive: true, force: true });
    const before = h.github.world.calls.length;
    await storySteps.approveWrites(h);

    const w = h.github.world;
    expect(callLines(h, before)).toEqual([
      MINT, // the new process has no cached token
      `GET ${R}/issues/comments/1012`, // the comment re-read: it exists and says `/agent approve`
      `GET ${R}/collaborators/maintainer/permission`,
      MINT,
      ...(dropClone ? ["GIT upload-pack /octo-org/calculator.git", "GIT upload-pack /octo-org/calculator.git"] : []),
      "GET /app", // the new process asks who it is once
      "GET /users/patchgate%5Bbot%5D",
      ...signedResultPush(),
      `POST ${R}/check-runs`,
      `PATCH ${R}/check-runs/${planRun.id}`, // the stored id of the run before the restart: adopted, then moved
      `PATCH ${R}/pulls/2`,
      "POST /graphql",
      `PATCH ${R}/check-runs/${w.checkRuns[2].id}`,
      `GET ${R}/issues/1/comments?per_page=100&page=1`,
      `POST ${R}/issues/1/comments`,
      // The session's threads read once more for copies a killed process's late POST left (none here).
      `GET ${R}/issues/1/comments?per_page=100&page=1`,
      `GET ${R}/issues/2/comments?per_page=100&page=1`,
    ]);
    expect(w.pulls).toHaveLength(1);
    expect(w.pulls[0]).toMatchObject({ number: 2, draft: false });
    const head = readBranch(h.bare, "patchgate/issue-1")!;
    expect(w.checkRuns.map((c) => c.head_sha)).toEqual([readBranch(h.bare, "main")!.sha, planRun.head_sha, head.sha]);
    expect(w.checkRuns[1]).toMatchObject({ id: planRun.id, status: "completed", conclusion: "neutral" });
    expect(theCheckRun(h)).toMatchObject({ id: w.checkRuns[2].id, head_sha: head.sha, status: "completed", conclusion: "success" });
    expect(head.files["src/add.js"]).toBe(FIXED);
    expect(w.comments.map((c) => c.issue_number)).toEqual([1, 2, 1]);
    expect(h.openai.remaining()).toBe(0);
    expect(h.app.errors).toEqual([]);
  });

  test("the ledger shows one session that resumed after the restart", async () => {
    const sessions = await h.app.deps.store.list();
    expect(sessions.map((s) => s.phase)).toEqual(["done"]);
    expect(h.timeline).toContain("— app restarted (new Probot, new store object, same SQLite file) —");
  });
});

import { rmSync } from "node:fs";
import { readBranch } from "../../src/demo/fakes/bare-repo.js";
import { startHarness, type Harness } from "../../src/demo/harness.js";
import { STORY_FILES, STORY_PERMISSIONS, storyScript, storySteps } from "../../src/demo/story.js";
import { callLines, MINT, R } from "./helpers.js";

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
    h = await startHarness({ script: storyScript(), files: STORY_FILES, permissions: STORY_PERMISSIONS });
    h.github.world.files.set(".github/patchgate.yml", STORY_FILES[".github/patchgate.yml"]);
  });
  afterAll(() => h.close());

  test("finishes with exactly one PR and one check run", async () => {
    await storySteps.ask(h);
    await storySteps.approvePlan(h);
    const checkRunId = h.github.world.checkRuns[0].id;
    const workspaces = h.app.deps.workspacesDir;
    await h.restart();
    if (dropClone) rmSync(workspaces, { recursive: true, force: true });
    const before = h.github.world.calls.length;
    await storySteps.approveWrites(h);

    const w = h.github.world;
    expect(callLines(h, before)).toEqual([
      MINT, // the new process has no cached token
      `GET ${R}/collaborators/maintainer/permission`,
      MINT,
      ...(dropClone ? ["GIT upload-pack /octo-org/calculator.git", "GIT upload-pack /octo-org/calculator.git"] : []),
      "GET /app", // the new process asks who it is once
      "GET /users/patchgate%5Bbot%5D",
      "GIT receive-pack /octo-org/calculator.git",
      `PATCH ${R}/pulls/2`,
      "POST /graphql",
      `PATCH ${R}/check-runs/${checkRunId}`,
      `GET ${R}/issues/1/comments?per_page=100&page=1`,
      `POST ${R}/issues/1/comments`,
    ]);
    expect(w.pulls).toHaveLength(1);
    expect(w.pulls[0]).toMatchObject({ number: 2, draft: false });
    expect(w.checkRuns).toHaveLength(1);
    expect(w.checkRuns[0]).toMatchObject({ id: checkRunId, status: "completed", conclusion: "success" });
    expect(readBranch(h.bare, "patchgate/issue-1")!.files["src/add.js"]).toBe(FIXED);
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

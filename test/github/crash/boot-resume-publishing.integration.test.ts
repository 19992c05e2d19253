import { readBranch } from "../../fakes/git/bare-repo.js";
import { type Harness } from "../../harness/harness.js";
import { storySteps } from "../../harness/story.js";
import { Ledger } from "../../../src/store/ledger.js";
import { callLines, MINT, outage, R, theCheckRun, storyHarness } from "../../harness/story-helpers.js";

/**
 * A session left in `publishing`: the finish was accepted and the commit pushed, then GitHub failed
 * (502 on the PR update). Nobody says `/agent retry`; the app restarts, and the boot resume publishes.
 */
describe("a session left publishing resumes when the app restarts", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await storyHarness();
  });
  afterAll(() => h.close());

  test("the restart finishes the publication on the commit already pushed: PR ready, its check run `success`", async () => {
    await storySteps.ask(h);
    await storySteps.approvePlan(h);
    outage(h, "PATCH", `${R}/pulls/2`, 502);
    await storySteps.approveWrites(h);
    const [summary] = await h.app.deps.store.list();
    expect(summary.phase).toBe("publishing");
    expect(h.app.errors).toHaveLength(1);
    const firstPush = readBranch(h.bare, "patchgate/issue-1")!;
    const stranded = theCheckRun(h); // created on the pushed commit before the PR update failed
    expect(stranded).toMatchObject({ head_sha: firstPush.sha, status: "in_progress" });
    const before = h.github.world.calls.length;

    await h.restart();
    await h.settle();

    const w = h.github.world;
    const head = readBranch(h.bare, "patchgate/issue-1")!;
    expect(callLines(h, before)).toEqual([
      MINT,
      `GET ${R}`,
      MINT,
      "GET /app",
      "GET /users/patchgate%5Bbot%5D",
      // The recorded result commit (GitHub's signed one) is adopted: no new commit is made; moving the
      // ref to where it already is is a no-op fast-forward. The check run already on it is adopted
      // and refreshed rather than created again.
      `PATCH ${R}/git/refs/${encodeURIComponent("heads/patchgate/issue-1")}`,
      `PATCH ${R}/check-runs/${stranded.id}`,
      `PATCH ${R}/pulls/2`,
      "POST /graphql",
      `PATCH ${R}/check-runs/${stranded.id}`,
      `GET ${R}/issues/1/comments?per_page=100&page=1`,
      `POST ${R}/issues/1/comments`,
      // The session's threads read once more for copies a killed process's late POST left (none here).
      `GET ${R}/issues/1/comments?per_page=100&page=1`,
      `GET ${R}/issues/2/comments?per_page=100&page=1`,
    ]);
    expect(head.sha).toBe(firstPush.sha);
    expect((await Ledger.open(h.app.deps.store, summary.id)).state.phase).toBe("done");
    expect(w.pulls).toEqual([expect.objectContaining({ number: 2, draft: false })]);
    expect(w.checkRuns.map((c) => c.conclusion)).toEqual(["neutral", "neutral", "success"]);
    expect(theCheckRun(h)).toMatchObject({ id: stranded.id, head_sha: head.sha, status: "completed", conclusion: "success" });
    expect(h.timeline).toContain(`session ${summary.id} was publishing when the app stopped → queued to resume`);
    expect(h.app.errors).toEqual([]);
  });
});

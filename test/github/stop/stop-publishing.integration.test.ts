import { type Harness } from "../../harness/harness.js";
import { storySteps } from "../../harness/story.js";
import { Ledger } from "../../../src/store/ledger.js";
import { storyHarness } from "../../harness/story-helpers.js";

/**
 * `/agent stop` while the result is being published. Publishing is not cut in half (the commit is
 * pushed, the PR made ready): the session ends `done`. The stop must still be answered — it used to
 * get no reply at all, because the interrupted job's own ending was taken to be the answer.
 */
describe("/agent stop during publishing", () => {
  let h: Harness;
  beforeAll(async () => {
    // The lane waits for the held publish however long the machine takes (not what this tests).
    h = await storyHarness({ abandonAfterAbortMs: 600_000 });
    await storySteps.ask(h);
    await storySteps.approvePlan(h);
  });
  afterAll(() => h.close());

  test("publishing completes and the stop is told it came too late", async () => {
    let release!: () => void;
    const reached = new Promise<void>((r) =>
      h.github.world.holdNext.push({ method: "POST", pathPrefix: "/graphql", reached: r, until: new Promise<void>((u) => (release = u)) }),
    );
    const pr = h.github.world.pulls[0];
    await h.send("issue_comment", h.payloads.comment({ number: pr.number, pr: true, body: "/agent approve", by: "maintainer" }));
    await reached; // publishing: marking the PR ready for review
    const aborted = h.logged((l) => l.startsWith("aborted 1 in-flight job(s)"));
    await h.send("issue_comment", h.payloads.comment({ number: pr.number, pr: true, body: "/agent stop", by: "maintainer" }));
    await aborted;
    release();
    await h.settle();

    const s = (await Ledger.open(h.app.deps.store, (await h.app.deps.store.list())[0].id)).state;
    expect(s.phase).toBe("done");
    expect(h.github.world.pulls[0].draft).toBe(false);
    const last = h.github.world.comments.at(-1)!;
    expect([last.issue_number, last.body.split("\n")[0]]).toEqual([pr.number, "The session had already ended (`done`); nothing to stop."]);
    expect(h.app.errors).toEqual([]);
  });
});

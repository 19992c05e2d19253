import { type Harness } from "../../harness/harness.js";
import { storySteps } from "../../harness/story.js";
import { Ledger } from "../../../src/store/ledger.js";
import { R, storyHarness } from "../../harness/story-helpers.js";

/**
 * `/agent stop` aborts the work in flight, and its cancellation waits in the session's lane. Work
 * already queued in that lane must not run first: an `/agent approve` queued before the stop used to
 * approve the plan and drive the session on, and only then was it cancelled.
 */
describe("/agent stop with an approval queued in the session's lane", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await storyHarness();
    await storySteps.ask(h);
  });
  afterAll(() => h.close());

  test("the queued approval is not applied; the session ends cancelled with its plan unapproved", async () => {
    const w = h.github.world;
    const pr = w.pulls[0];
    const llmCalls = h.openai.requests.length;
    // Job A holds the lane (inside its permission check, where no abort reaches it).
    let release!: () => void;
    const reached = new Promise<void>((r) =>
      w.holdNext.push({ method: "GET", pathPrefix: `${R}/collaborators/reader/permission`, reached: r, until: new Promise<void>((u) => (release = u)) }),
    );
    await h.send("issue_comment", h.payloads.comment({ number: pr.number, pr: true, body: "/agent status please", by: "reader" }));
    await reached;
    // Job B: queued behind A.
    await h.send("issue_comment", h.payloads.comment({ number: pr.number, pr: true, body: "/agent approve", by: "maintainer" }));
    // The stop, from the control lane: its line in the log says it was taken.
    const stopTaken = h.logged((l) => l.startsWith("stop requested"));
    await h.send("issue_comment", h.payloads.comment({ number: pr.number, pr: true, body: "/agent stop", by: "reviewer" }));
    await stopTaken;
    release();
    await h.settle();

    const s = (await Ledger.open(h.app.deps.store, (await h.app.deps.store.list())[0].id)).state;
    expect([s.phase, s.approvedPlanHash]).toEqual(["cancelled", null]);
    expect(h.openai.requests.length).toBe(llmCalls);
    expect(w.comments.some((c) => c.body.startsWith("Not applied: `/agent stop` is cancelling this session."))).toBe(true);
    expect(h.app.errors).toEqual([]);
  });

  test("after the cancellation, the lane takes work again: a new start is not refused as stopped", async () => {
    await h.send("issue_comment", h.payloads.comment({ number: 1, body: "/agent fix this", by: "maintainer" }));
    await h.settle();
    expect(await h.app.deps.store.list()).toHaveLength(2);
  });
});

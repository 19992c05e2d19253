import { type Harness } from "../../harness/harness.js";
import { storySteps } from "../../harness/story.js";
import { Ledger } from "../../../src/store/ledger.js";
import { callLines, MINT, R, storyHarness } from "../../harness/story-helpers.js";

/**
 * Reviews and labels are ordinary GitHub actions on a PR: one that does not fit what the session waits
 * for is ignored silently. A review Approve approves a plan, never a batch of writes; an approval label
 * on a session that has ended changes nothing and is not an error.
 */
describe("approvals that arrive when the session is not waiting for them", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await storyHarness();
    await storySteps.ask(h);
    await storySteps.approvePlan(h); // now parked on the batch of writes
  });
  afterAll(() => h.close());

  const ledger = async () => Ledger.open(h.app.deps.store, (await h.app.deps.store.list())[0].id);

  test("a review Approve while writes are pending does not approve the writes", async () => {
    const before = (await ledger()).history.length;
    const calls = h.github.world.calls.length;
    await h.send("pull_request_review", h.payloads.review({ pr: 2, state: "approved", body: "LGTM", by: "reviewer" }));
    await h.settle();
    const l = await ledger();
    expect(l.state.phase).toBe("awaiting_write_approval");
    expect(l.state.pending?.status).toBe("pending");
    expect(l.history.length).toBe(before);
    expect(callLines(h, calls)).toEqual([`GET ${R}/pulls/2/reviews/1011`, `GET ${R}/collaborators/reviewer/permission`, MINT]);
  });

  test("`agent:writes-approved` on a cancelled session is ignored: no error, no comment, no event", async () => {
    await h.send("issue_comment", h.payloads.comment({ number: 2, pr: true, body: "/agent stop", by: "maintainer" }));
    await h.settle();
    expect((await ledger()).state.phase).toBe("cancelled");
    const before = (await ledger()).history.length;
    const comments = h.github.world.comments.length;
    await h.send("pull_request", h.payloads.prLabeled({ pr: 2, label: "agent:writes-approved", by: "maintainer" }));
    await h.settle();
    expect(h.github.world.comments.length).toBe(comments);
    expect((await ledger()).history.length).toBe(before);
    expect(h.app.errors).toEqual([]);
  });
});

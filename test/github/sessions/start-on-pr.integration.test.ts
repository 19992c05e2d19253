import { type Harness } from "../../harness/harness.js";
import { ISSUE, storySteps } from "../../harness/story.js";
import { Ledger } from "../../../src/store/ledger.js";
import { storyHarness } from "../../harness/story-helpers.js";

/**
 * `/agent fix this` on the draft PR of a session that was cancelled starts a new session for the
 * issue. Its task is the issue's, as `/agent retry` would take it — not the PR's title and body,
 * which are Patchgate's own text (the old plan, the approval instructions) and not the task.
 */
describe("a new start on the PR of an ended session", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await storyHarness();
    await storySteps.ask(h);
    await h.send("issue_comment", h.payloads.comment({ number: 2, pr: true, body: "/agent stop", by: "maintainer" }));
    await h.settle();
    const pr = h.github.world.pulls[0];
    await h.send("issue_comment", h.payloads.comment({ number: 2, pr: true, title: pr.title, issueBody: pr.body, body: "/agent fix this", by: "maintainer" }));
    await h.settle();
  });
  afterAll(() => h.close());

  test("works on the issue's task, not on the PR's text", async () => {
    const sessions = await h.app.deps.store.list();
    expect(sessions).toHaveLength(2);
    const [first, second] = await Promise.all(sessions.map((s) => Ledger.open(h.app.deps.store, s.id)));
    const fresh = first.state.phase === "cancelled" ? second : first;
    const old = fresh === first ? second : first;
    expect(fresh.state.task.source.issueNumber).toBe(ISSUE.number);
    expect(fresh.state.task.title).toBe(old.state.task.title);
    expect(fresh.state.task.title).toBe(ISSUE.title);
    expect(fresh.state.task.body).toContain(old.state.task.body);
    expect(fresh.state.task.body).not.toContain("How to approve");
  });
});

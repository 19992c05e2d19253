import { type Harness } from "../../harness/harness.js";
import { ISSUE, storySteps } from "../../harness/story.js";
import { callLines, MINT, R, storyHarness } from "../../harness/story-helpers.js";

/** Each test gets its own world, so "nothing changed" is checked against an untouched GitHub. */
describe("who is obeyed", () => {
  let h: Harness;
  beforeEach(async () => {
    h = await storyHarness();
  });
  afterEach(() => h.close());

  async function nothingStarted(): Promise<void> {
    expect(await h.app.deps.store.list()).toEqual([]);
    expect(h.github.world.reactions).toEqual([]);
    expect(h.github.world.checkRuns).toEqual([]);
    expect(h.github.world.pulls).toEqual([]);
    expect(h.openai.requests).toEqual([]);
    expect(h.app.errors).toEqual([]);
  }

  test("a read-permission user's `/agent fix this` gets a polite refusal and nothing else", async () => {
    const r = await h.send("issue_comment", h.payloads.comment({ number: 1, title: ISSUE.title, body: "/agent fix this", by: "reader" }));
    await h.settle();
    expect(r.status).toBe(200);
    expect(callLines(h)).toEqual([MINT, `GET ${R}/issues/comments/1003`, `GET ${R}/collaborators/reader/permission`, `POST ${R}/issues/1/comments`]);
    expect(h.github.world.comments[0].body.split("\n")[0]).toBe(
      "Sorry @reader, Patchgate only takes commands from people with write access to this repository (your role here is `read`). Nothing was changed.",
    );
    await nothingStarted();
  });

  test("a triage user adding the `agent` label is judged by the sender and refused", async () => {
    await h.send("issues", h.payloads.issueLabeled({ number: 1, title: ISSUE.title, body: ISSUE.body, label: "agent", by: "triager" }));
    await h.settle();
    expect(callLines(h)).toEqual([
      MINT,
      `GET ${R}/issues/1/events?per_page=100&page=1`,
      `GET ${R}/issues/1/labels?per_page=100`,
      `GET ${R}/collaborators/triager/permission`,
      `POST ${R}/issues/1/comments`,
    ]);
    expect(h.github.world.comments[0].body).toContain("only takes labels from people with write access to this repository (your role here is `triage`)");
    await nothingStarted();
  });

  test("a bot's `/agent fix this` is ignored without a single API call", async () => {
    const r = await h.send("issue_comment", h.payloads.comment({ number: 1, body: "/agent fix this", by: "renovate[bot]" }));
    await h.settle();
    expect(r.status).toBe(200);
    expect(callLines(h)).toEqual([]);
    await nothingStarted();
  });

  test("Patchgate's own comments (which quote commands) are ignored", async () => {
    const body = "Reply `/agent approve` to let the batch run.\n/agent approve\n\n<!-- patchgate:abc:batch-1 -->";
    await h.send("issue_comment", h.payloads.comment({ number: 1, body, by: "patchgate[bot]" }));
    await h.settle();
    expect(callLines(h)).toEqual([]);
    await nothingStarted();
  });

  test("a read user cannot approve a parked plan; it stays unapproved", async () => {
    await storySteps.ask(h);
    const before = h.github.world.calls.length;
    const pr = h.github.world.pulls[0];
    await h.send("pull_request_review", h.payloads.review({ pr: pr.number, state: "approved", body: "", by: "reader" }));
    await h.send("pull_request", h.payloads.prLabeled({ pr: pr.number, label: "agent:plan-approved", by: "triager" }));
    await h.settle();
    // The two deliveries share the issue's lane, but each is read back from GitHub as it is received.
    expect(callLines(h, before).sort()).toEqual(
      [
        `GET ${R}/pulls/2/reviews/1009`,
        `GET ${R}/issues/2/events?per_page=100&page=1`,
        `GET ${R}/issues/2/labels?per_page=100`,
        `GET ${R}/collaborators/reader/permission`,
        `POST ${R}/issues/2/comments`,
        `GET ${R}/collaborators/triager/permission`,
        `POST ${R}/issues/2/comments`,
      ].sort(),
    );
    const sessionId = (await h.app.deps.store.list())[0].id;
    const { Ledger } = await import("../../../src/store/ledger.js");
    expect((await Ledger.open(h.app.deps.store, sessionId)).state.phase).toBe("awaiting_plan_approval");
    expect(h.openai.requests).toHaveLength(2);
  });

  test("a maintainer who loses access after commenting, before the job runs, approves nothing", async () => {
    await storySteps.ask(h);
    const pr = h.github.world.pulls[0];
    // Hold the lane: a job ahead of the approval waits inside its own permission check.
    let release!: () => void;
    const reached = new Promise<void>((r) =>
      h.github.world.holdNext.push({
        method: "GET",
        pathPrefix: `${R}/collaborators/reader/permission`,
        reached: r,
        until: new Promise<void>((u) => (release = u)),
      }),
    );
    await h.send("issue_comment", h.payloads.comment({ number: pr.number, pr: true, body: "/agent approve", by: "reader" }));
    await reached;
    await h.send("issue_comment", h.payloads.comment({ number: pr.number, pr: true, body: "/agent approve", by: "maintainer" }));
    h.github.world.permissions.set("maintainer", "read");
    release();
    await h.settle();
    const { Ledger } = await import("../../../src/store/ledger.js");
    const s = (await Ledger.open(h.app.deps.store, (await h.app.deps.store.list())[0].id)).state;
    expect([s.phase, s.approvedPlanHash]).toEqual(["awaiting_plan_approval", null]);
    expect(h.github.world.comments.at(-1)!.body).toContain("Sorry @maintainer, Patchgate only takes commands from people with write access");
  });

  test("the Approve plan button pressed by a read user is refused; the plan stays unapproved, and the button still works for a maintainer", async () => {
    await storySteps.ask(h);
    const run = h.github.world.checkRuns.find((r) => r.actions.length > 0)!;
    await h.send("check_run", h.payloads.checkRunAction({ checkRunId: run.id, identifier: run.actions[0].identifier, by: "reader" }));
    await h.settle();
    const { Ledger } = await import("../../../src/store/ledger.js");
    const s = (await Ledger.open(h.app.deps.store, (await h.app.deps.store.list())[0].id)).state;
    expect([s.phase, s.approvedPlanHash]).toEqual(["awaiting_plan_approval", null]);
    const refusal = h.github.world.comments.at(-1)!;
    expect([refusal.issue_number, refusal.body.split("\n")[0]]).toEqual([
      1,
      "Sorry @reader, Patchgate only takes approvals from people with write access to this repository (your role here is `read`). Nothing was changed.",
    ]);
    await h.send("check_run", h.payloads.checkRunAction({ checkRunId: run.id, identifier: run.actions[0].identifier, by: "maintainer" }));
    await h.settle();
    const after = (await Ledger.open(h.app.deps.store, (await h.app.deps.store.list())[0].id)).state;
    expect(after.approvedPlanHash).toBe(after.planHash);
  });
});

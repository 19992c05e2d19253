import { type Harness } from "../../harness/harness.js";
import { ISSUE, storySteps } from "../../harness/story.js";
import { Ledger } from "../../../src/store/ledger.js";
import { storyHarness } from "../../harness/story-helpers.js";

/**
 * A delivery's id is not signed: a captured body can be sent again under a new id. A command is
 * read back from GitHub and deduplicated on the object it came from, so a replay changes nothing.
 */
async function state(h: Harness) {
  const [s] = await h.app.deps.store.list();
  return (await Ledger.open(h.app.deps.store, s.id)).state;
}

describe("replayed bodies under new delivery ids", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await storyHarness();
  });
  afterAll(() => h.close());

  test("a trigger re-sent starts nothing", async () => {
    const ask = h.payloads.comment({ number: ISSUE.number, title: ISSUE.title, issueBody: ISSUE.body, body: "/agent fix this", by: "maintainer" });
    await h.send("issue_comment", ask, "ask-1");
    await h.settle();
    await h.send("issue_comment", ask, "ask-replayed");
    await h.settle();
    expect(await h.app.deps.store.list()).toHaveLength(1);
    expect(h.timeline.some((l) => /already applied|ask-replayed ignored/.test(l))).toBe(true);
    expect(h.github.world.pulls).toHaveLength(1);
  });

  test("a label added before the plan existed approves nothing", async () => {
    const pr = h.github.world.pulls[0];
    // The labeled event is older than the plan: as if added while the session was still planning.
    const labeled = h.payloads.prLabeled({ pr: pr.number, label: "agent:plan-approved", by: "maintainer" });
    h.github.world.issueEvents.at(-1)!.created_at = "2020-01-01T00:00:00Z";
    await h.send("pull_request", labeled);
    await h.settle();
    expect((await state(h)).phase).toBe("awaiting_plan_approval");
  });

  test("an edited approval comment approves nothing", async () => {
    const pr = h.github.world.pulls[0];
    const approve = h.payloads.comment({ number: pr.number, pr: true, title: pr.title, body: "/agent approve", by: "maintainer" });
    const c = h.github.world.userComments.at(-1)!;
    Object.assign(c, { body: "/agent approve\n\n(edited later)", updated_at: new Date(Date.now() + 5000).toISOString() });
    await h.send("issue_comment", approve);
    await h.settle();
    expect((await state(h)).phase).toBe("awaiting_plan_approval");
    expect(h.github.world.comments.at(-1)!.body).toMatch(/^That comment was edited after it was written/);
  });

  test("an /agent approve re-sent under a new id approves nothing more (not the write batch that followed)", async () => {
    const pr = h.github.world.pulls[0];
    const approve = h.payloads.comment({ number: pr.number, pr: true, title: pr.title, body: "/agent approve", by: "maintainer" });
    await h.send("issue_comment", approve, "approve-1");
    await h.settle();
    const parked = await state(h);
    expect(parked.phase).toBe("awaiting_write_approval");
    await h.send("issue_comment", approve, "approve-replayed");
    await h.settle();
    const after = await state(h);
    expect(after.phase).toBe("awaiting_write_approval");
    expect(after.pending).toEqual(parked.pending);
    const replayed = h.timeline.slice(h.timeline.indexOf("delivery approve-1 done"));
    expect(replayed.filter((l) => /^comment:\d+ is already applied to session \S+; nothing to do$/.test(l))).toHaveLength(1);
    expect(replayed.filter((l) => /approved by/.test(l))).toEqual([]);
  });

  test("a writes-approved label from one session, replayed into the next, turns nothing on", async () => {
    await storySteps.approvePlan(h);
    const pr = h.github.world.pulls[0];
    const label = h.payloads.prLabeled({ pr: pr.number, label: "agent:writes-approved", by: "maintainer" });
    await h.send("pull_request", label, "label-1");
    await h.settle();
    expect((await state(h)).phase).toBe("done");
    const stop = h.payloads.comment({ number: pr.number, pr: true, title: pr.title, body: "/agent stop", by: "maintainer" });
    // A new session on the same issue, then the old label and a stop body replayed under new ids.
    await h.send("issue_comment", h.payloads.comment({ number: pr.number, pr: true, title: pr.title, body: "/agent also fix the README", by: "maintainer" }));
    await h.settle();
    const before = await state(h);
    await h.send("pull_request", label, "label-replayed");
    await h.send("issue_comment", stop, "stop-1");
    await h.settle();
    await h.send("issue_comment", stop, "stop-replayed");
    await h.settle();
    const after = await state(h);
    expect(after.autoApproveWrites ?? false).toBe(before.autoApproveWrites ?? false);
    expect(h.timeline.filter((l) => / ignored$/.test(l) && /(label|stop)-replayed/.test(l))).toHaveLength(2);
  });
});

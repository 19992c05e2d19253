import type { Harness } from "../../harness/harness.js";
import { ISSUE, storySteps } from "../../harness/story.js";
import type { StoredEvent } from "../../../src/session/events.js";
import { Ledger } from "../../../src/store/ledger.js";
import { storyHarness } from "../../harness/story-helpers.js";

/**
 * GitHub stamps a comment with whole seconds, so a quick approver's comment can carry the very second
 * the plan or batch was asked for. Its id then tells the order: GitHub's comment ids only grow, and
 * Patchgate remembers the id of its own request comment.
 */
/** The part of an `issue_comment` payload this test stamps. */
interface CommentPayload {
  comment: { id: number; created_at: string; updated_at: string };
}

describe("an approval comment in the same second as the request", () => {
  let h: Harness;
  let early: CommentPayload;
  const commentBy = (o: Parameters<Harness["payloads"]["comment"]>[0]) => h.payloads.comment(o) as CommentPayload;
  beforeAll(async () => {
    h = await storyHarness();
    // Written before Patchgate asked for anything: its id is smaller than the request comment's.
    early = commentBy({ number: ISSUE.number, body: "/agent approve", by: "maintainer" });
    await storySteps.ask(h);
  });
  afterAll(() => h.close());

  const ledger = async () => Ledger.open(h.app.deps.store, (await h.app.deps.store.list())[0].id);
  /** The whole second (as GitHub writes it) in which the session recorded its last `type` event. */
  const secondOf = async (type: StoredEvent["type"]) => {
    const at = (await ledger()).history.filter((e) => e.type === type).at(-1)!.at;
    return `${at.slice(0, 19)}Z`;
  };
  /** Gives a human comment GitHub's stamp `at`, in the payload and in what the API reads back. */
  const stamped = (p: CommentPayload, at: string) => {
    Object.assign(p.comment, { created_at: at, updated_at: at });
    Object.assign(
      h.github.world.userComments.find((c) => c.id === p.comment.id)!,
      { created_at: at, updated_at: at },
    );
    return p;
  };
  const requestComment = (prefix: string) => h.github.world.comments.find((c) => c.body.startsWith(prefix))!;

  test("a comment written before the request comment (a smaller id) stays stale", async () => {
    expect(early.comment.id).toBeLessThan(requestComment("📋 The plan").id);
    await h.send("issue_comment", stamped(early, await secondOf("plan_submitted")));
    await h.settle();
    expect(h.github.world.comments.at(-1)!.body).toMatch(/^That approval is for plan `\(none\)`, but the current one is `[0-9a-f]{12}`/);
    expect((await ledger()).state.approvedPlanHash).toBeNull();
  });

  test("a comment after the plan's request comment, stamped the plan's second, approves the plan", async () => {
    const p = commentBy({ number: ISSUE.number, body: "/agent approve", by: "maintainer" });
    expect(p.comment.id).toBeGreaterThan(requestComment("📋 The plan").id);
    await h.send("issue_comment", stamped(p, await secondOf("plan_submitted")));
    await h.settle();
    const s = (await ledger()).state;
    expect(s.approvedPlanHash).toBe(s.planHash);
    expect(s.phase).toBe("awaiting_write_approval");
  });

  test("a comment after the batch's request comment, stamped the batch's second, approves the batch", async () => {
    const pr = h.github.world.pulls[0];
    const p = commentBy({ number: pr.number, pr: true, title: pr.title, body: "/agent approve", by: "maintainer" });
    expect(p.comment.id).toBeGreaterThan(requestComment("✋ The agent wants").id);
    const digest = (await ledger()).state.pending!.digest;
    await h.send("issue_comment", stamped(p, await secondOf("approval_requested")));
    await h.settle();
    const approved = (await ledger()).history.find((e) => e.type === "approval_granted");
    expect(approved).toMatchObject({ digest, by: { login: "maintainer", via: "comment" } });
    expect(h.app.errors).toEqual([]);
  });
});

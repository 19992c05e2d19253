import { ISSUE } from "../../harness/story.js";
import { CrashWorld } from "../../helpers/crash-world.js";

/**
 * GitHub has no idempotency key for comments. A comment whose POST was in flight when its process
 * was killed -9 can land after the next process searched the thread for its marker and, not finding
 * it, posted its own: the thread then holds the same comment twice (a chaos run saw the plan comment
 * twice). The session's end leaves one copy of each of its comments.
 */
describe("kill -9 during a comment post that GitHub completes late", () => {
  let c: CrashWorld;
  beforeAll(async () => {
    c = await CrashWorld.create();
  });
  afterAll(() => c.close());

  test("the plan comment posted again after the restart, the first copy landing later: one copy stays", async () => {
    const send = async (event: string, payload: unknown) => expect((await c.send(event, payload)).status).toBe(200);
    const w = c.github.world;
    const planComments = () => w.comments.filter((m) => m.user.type === "Bot" && m.body.includes(":plan-"));
    let release!: () => void;
    let reached!: () => void;
    const held = new Promise<void>((r) => (reached = r));
    const until = new Promise<void>((r) => (release = r));
    w.holdNext.push({
      method: "POST",
      pathPrefix: `/repos/octo-org/calculator/issues/${ISSUE.number}/comments`,
      match: (_p, body) => String((body as { body?: string })?.body ?? "").includes(":plan-"),
      reached,
      until,
    });
    await send(
      "issue_comment",
      c.payloads.comment({ number: ISSUE.number, title: ISSUE.title, issueBody: ISSUE.body, body: "/agent fix this", by: "maintainer" }),
    );
    await held;
    await c.app.kill9();

    await c.start();
    expect(await c.app.settle()).toBe("errors=0");
    expect(planComments()).toHaveLength(1);
    // Only now does GitHub finish the dead process's request.
    release();
    for (let i = 0; i < 500 && planComments().length < 2; i++) await new Promise((r) => setTimeout(r, 10));
    expect(planComments()).toHaveLength(2);

    const pr = w.pulls[0];
    await send("pull_request_review", c.payloads.review({ pr: pr.number, state: "approved", body: "ok", by: "reviewer" }));
    expect(await c.app.settle()).toBe("errors=0");
    await send("issue_comment", c.payloads.comment({ number: pr.number, pr: true, title: pr.title, body: "/agent approve", by: "maintainer" }));
    expect(await c.app.settle()).toBe("errors=0");
    expect(w.comments.filter((m) => m.body.includes(":done -->"))).toHaveLength(1);
    expect(planComments()).toHaveLength(1);
    const bodies = w.comments.filter((m) => m.user.type === "Bot").map((m) => m.body);
    expect(new Set(bodies).size).toBe(bodies.length);
  }, 120_000);
});

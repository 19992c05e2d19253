import { ISSUE } from "../../harness/story.js";
import { CrashWorld } from "../../helpers/crash-world.js";
import { R } from "../../harness/story-helpers.js";

/**
 * A delivery answered 2xx survives the process dying before its job's first effect: kill -9 of a real
 * app process while the job waits on its first GitHub call, a new process on the same SQLite file,
 * and the work happens exactly once — from the inbox at boot, and not again for GitHub's redelivery.
 */
describe("the inbox across kill -9", () => {
  let c: CrashWorld;
  const events = async () => (await c.events()).map((e) => e.type);
  /** The next call of the job to GitHub's repository API waits; resolves when it is reached. */
  const holdNextRepoCall = () => c.holdNext("GET", `${R}/`);

  beforeAll(async () => {
    c = await CrashWorld.create();
  });
  afterAll(() => c.close());

  test("an approval whose process died after the 2xx is applied once by the next process", async () => {
    const ask = await c.send(
      "issue_comment",
      c.payloads.comment({ number: ISSUE.number, title: ISSUE.title, issueBody: ISSUE.body, body: "/agent fix this", by: "maintainer" }),
    );
    await c.done(ask.id);
    const pr = c.github.world.pulls[0];
    expect(pr.draft).toBe(true);

    const hold = holdNextRepoCall();
    const review = await c.send("pull_request_review", c.payloads.review({ pr: pr.number, state: "approved", body: "Looks right.", by: "reviewer" }));
    expect(review.status).toBe(200);
    await hold.reached;
    await c.app.kill9();
    hold.release();
    expect(await events()).not.toContain("plan_approved");

    await c.start();
    await c.done(review.id);
    const after = await events();
    expect(after.filter((t) => t === "plan_approved")).toHaveLength(1);
    expect(after.at(-1)).toBe("approval_requested");
    expect(c.app.lines).toContain(`delivery ${review.id} (pull_request_review.submitted) was not done when the app stopped → queued again`);

    // GitHub redelivers it: a no-op now.
    const calls = c.github.world.calls.length;
    const again = await c.send("pull_request_review", c.payloads.review({ pr: pr.number, state: "approved", body: "Looks right.", by: "reviewer" }), review.id);
    expect(again.status).toBe(200);
    await c.app.logged((l) => l === `redelivery ${review.id} ignored (already done)`);
    expect(c.github.world.calls.length).toBe(calls);
  });

  test("a write approval killed the same way, then redelivered by GitHub while the new process runs it: done once", async () => {
    const pr = c.github.world.pulls[0];
    const payload = c.payloads.comment({ number: pr.number, pr: true, title: pr.title, body: "/agent approve", by: "maintainer" });
    const hold = holdNextRepoCall();
    const approve = await c.send("issue_comment", payload);
    await hold.reached;
    await c.app.kill9();
    hold.release();

    await c.start();
    const again = await c.send("issue_comment", payload, approve.id);
    expect(again.status).toBe(200);
    await c.done(approve.id);
    const after = await events();
    expect(after.filter((t) => t === "approval_granted")).toHaveLength(1);
    expect(after.at(-1)).toBe("published");
    expect(c.github.world.pulls).toHaveLength(1);
    expect(c.github.world.pulls[0].draft).toBe(false);
    expect(c.github.world.comments.filter((c) => c.body.startsWith("✅ Done"))).toHaveLength(1);
    expect(c.openai.remaining()).toBe(0);
  });
});

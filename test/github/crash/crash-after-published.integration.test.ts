import { ISSUE } from "../../harness/story.js";
import { CrashWorld } from "../../helpers/crash-world.js";

/**
 * The session's end is in the ledger (`published`) before GitHub hears it. Killed -9 while the
 * check run is being completed, the next process finds a session that is done — no webhook will
 * come for it — and must still complete the check run and post the done comment, once.
 */
describe("kill -9 after the publication is recorded, before the check run is completed", () => {
  let c: CrashWorld;
  beforeAll(async () => {
    c = await CrashWorld.create();
  });
  afterAll(() => c.close());

  test("the next process announces the end: the check run completed, one done comment", async () => {
    const send = async (event: string, payload: unknown) => expect((await c.send(event, payload)).status).toBe(200);
    await send(
      "issue_comment",
      c.payloads.comment({ number: ISSUE.number, title: ISSUE.title, issueBody: ISSUE.body, body: "/agent fix this", by: "maintainer" }),
    );
    await c.app.settle();
    const pr = c.github.world.pulls[0];
    await send("pull_request_review", c.payloads.review({ pr: pr.number, state: "approved", body: "ok", by: "reviewer" }));
    await c.app.settle();
    let release!: () => void;
    let reached!: () => void;
    const held = new Promise<void>((r) => (reached = r));
    const until = new Promise<void>((r) => (release = r));
    c.github.world.holdNext.push({
      method: "PATCH",
      pathPrefix: "/repos/octo-org/calculator/check-runs/",
      match: (_p, body) => (body as { conclusion?: string })?.conclusion === "success",
      reached,
      until,
    });
    await send("issue_comment", c.payloads.comment({ number: pr.number, pr: true, title: pr.title, body: "/agent approve", by: "maintainer" }));
    await held;
    await c.app.kill9();
    release();
    expect((await c.events()).map((e) => e.type)).toContain("published");

    await c.start();
    expect(await c.app.settle()).toBe("errors=0");
    const w = c.github.world;
    expect(w.checkRuns.filter((r) => r.status !== "completed")).toEqual([]);
    expect(w.checkRuns.filter((r) => r.conclusion === "success")).toHaveLength(1);
    const done = w.comments.filter((m) => m.body.includes(":done -->"));
    expect(done).toHaveLength(1);
    const bodies = w.comments.filter((m) => m.user.type === "Bot").map((m) => m.body);
    expect(new Set(bodies).size).toBe(bodies.length);
  }, 120_000);
});

import { type Harness } from "../../harness/harness.js";
import { storySteps } from "../../harness/story.js";
import { storyHarness } from "../../harness/story-helpers.js";

/**
 * Patchgate finds its earlier comment by the hidden marker when it does not remember the comment's
 * id. The marker is no secret: the session id is in every Patchgate comment's source, and effects
 * like `ended` or `done` are fixed names. Anyone who can comment (a read user on a public repo) can
 * plant `<!-- patchgate:<session>:ended -->` first; Patchgate must not adopt that comment — it would
 * overwrite a stranger's comment with its notice, which the stranger could then edit at will.
 */
describe("a human comment carrying a forged Patchgate marker", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await storyHarness();
    await storySteps.ask(h);
  });
  afterAll(() => h.close());

  test("is neither adopted nor edited, while Patchgate's own marked comment (left by a crash) still is", async () => {
    const w = h.github.world;
    const sessionId = /<!-- patchgate:([^:]+):/.exec(w.comments[0].body)![1];
    const ended = `<!-- patchgate:${sessionId}:ended -->`;
    const comment = (by: string, body: string) => ({
      id: w.id(),
      issue_number: 1,
      body,
      user: w.user(by),
      created_at: w.now(),
      updated_at: w.now(),
      html_url: `${w.issueUrl(1)}#c`,
    });
    // The forgery comes first in the thread, so a marker-only search would take it.
    const planted = comment("reader", `I'll take it from here.\n\n${ended}`);
    const leftover = comment(w.botLogin, `(posted before a crash, id never stored)\n\n${ended}`);
    w.comments.push(planted, leftover);
    const original = planted.body;

    await h.send("issue_comment", h.payloads.comment({ number: 1, body: "/agent stop", by: "maintainer" }));
    await h.settle();

    expect(planted.body).toBe(original);
    expect(leftover.body.startsWith("🛑 The session was cancelled.")).toBe(true);
    expect(w.comments.filter((c) => c.body.startsWith("🛑"))).toEqual([leftover]);
    expect(h.app.errors).toEqual([]);
  });
});

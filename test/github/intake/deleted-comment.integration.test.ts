import { type Harness } from "../../harness/harness.js";
import { storySteps } from "../../harness/story.js";
import { storyHarness } from "../../harness/story-helpers.js";

/**
 * Patchgate updates the comment it remembers for an effect. A human may delete that comment; the
 * next publication of the same effect (here `/agent retry` republishing the parked plan) must post
 * it anew — it used to fail on the 404, and every later retry failed the same way.
 */
describe("a Patchgate comment deleted by a human", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await storyHarness();
    await storySteps.ask(h);
  });
  afterAll(() => h.close());

  test("is posted again by the next publication of its effect", async () => {
    const w = h.github.world;
    const plan = w.comments.findIndex((c) => c.body.startsWith("📋"));
    expect(plan).toBeGreaterThanOrEqual(0);
    w.comments.splice(plan, 1);

    await h.send("issue_comment", h.payloads.comment({ number: 1, body: "/agent retry", by: "maintainer" }));
    await h.settle();

    expect(w.comments.filter((c) => c.body.startsWith("📋"))).toHaveLength(1);
    expect(w.comments.filter((c) => c.body.startsWith("Patchgate hit an error"))).toEqual([]);
    expect(h.app.errors).toEqual([]);
  });
});

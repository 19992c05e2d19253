import { type Harness } from "../../harness/harness.js";
import { storySteps } from "../../harness/story.js";
import { PRODUCTION_LIMITS, retryAfterLimit } from "../../../src/github/rate-limits.js";
import { callLines, R, storyHarness } from "../../harness/story-helpers.js";

describe("a secondary rate limit on POST /pulls", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await storyHarness();
    h.github.world.failNext.push({ method: "POST", pathPrefix: `${R}/pulls`, status: 403, retryAfter: 2 });
    await storySteps.ask(h);
  });
  afterAll(() => h.close());

  test("is waited out as GitHub asks, and the draft PR is opened by the retry", () => {
    const pulls = h.github.world.calls.filter((c) => c.method === "POST" && c.path === `${R}/pulls`);
    expect(pulls.map((c) => c.status)).toEqual([403, 201]);
    expect(h.github.world.pulls).toHaveLength(1);
    expect(h.app.errors).toEqual([]);
    // The plan is published once: one PR, one plan comment, nothing posted twice.
    expect(callLines(h).filter((l) => l === `POST ${R}/issues/1/comments`)).toHaveLength(1);
  });
});

describe("when to wait out a rate limit", () => {
  test("retried up to the bound", () => {
    expect([0, 1, 2, 3].map((n) => retryAfterLimit(60, n, PRODUCTION_LIMITS))).toEqual([true, true, true, false]);
  });
  test("a wait longer than the bound is not waited for", () => {
    expect(retryAfterLimit(PRODUCTION_LIMITS.maxWaitSeconds + 1, 0, PRODUCTION_LIMITS)).toBe(false);
  });
  test("production spaces writes as GitHub asks: one at a time, at least a second apart", () => {
    expect([PRODUCTION_LIMITS.secondMs, PRODUCTION_LIMITS.writeSpacingMs >= 1000]).toEqual([1000, true]);
  });
});

describe("a 429 insufficient_quota from the model", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await storyHarness({
      script: [{ error: { status: 429, code: "insufficient_quota", message: "You exceeded your current quota" } }, { content: "never served" }],
    });
    await storySteps.ask(h);
  });
  afterAll(() => h.close());

  test("is one call, and the session fails saying it was not retried", async () => {
    expect(h.openai.requests).toHaveLength(1);
    const [s] = await h.app.deps.store.list();
    expect(s.phase).toBe("failed");
    const ended = h.github.world.comments.at(-1)!.body;
    expect(ended).toMatch(/^❌ The session failed: `llm_error` — .*insufficient_quota: not retried/);
  });
});

import { readBranch } from "../../fakes/git/bare-repo.js";
import { type Harness } from "../../harness/harness.js";
import { storySteps } from "../../harness/story.js";
import { exportTrace } from "../../../src/trace/export.js";
import { SAMPLES } from "../../trace/fixtures/secrets.js";
import { storyHarness } from "../../harness/story-helpers.js";

/**
 * The key shapes the old redaction missed (npm, AWS, Slack, Stripe, JWT, Google Cloud), each written
 * by the model into its plan — which it may have read in a log or an issue — and followed to where
 * it leaves: every body posted to GitHub, and the session's trace export (`patchgate trace`).
 */
const SHAPES = [
  "npm token",
  "AWS access key id",
  "AWS secret access key",
  "Slack bot token",
  "Slack webhook",
  "Stripe live key",
  "Stripe restricted key",
  "JWT",
  "Google API key",
];
const CASES = SAMPLES.filter((s) => SHAPES.includes(s.kind));

describe("third-party key shapes written by the model", () => {
  let h: Harness;
  let posted: string[];
  let trace: string;

  beforeAll(async () => {
    const plan = { summary: "Rotate the credentials found in the deploy log.", steps: CASES.map((c) => `Replace ${c.text.trim()} in deploy.env`) };
    h = await storyHarness({ script: [{ toolCalls: [{ name: "submit_plan", arguments: plan }] }] });
    await storySteps.ask(h);
    const w = h.github.world;
    const pr = w.pulls[0];
    posted = [
      pr.title,
      pr.body,
      readBranch(h.bare, "patchgate/issue-1")!.message,
      ...w.comments.map((c) => c.body),
      ...w.checkRuns.flatMap((r) => [r.output.title ?? "", r.output.summary ?? "", r.output.text ?? ""]),
    ];
    const [s] = await h.app.deps.store.list();
    trace = exportTrace(await h.app.deps.store.load(s.id), "json");
  });
  afterAll(() => h.close());

  test("every shape is in the fixture, and the plan was published", () => {
    expect(CASES.map((c) => c.kind)).toEqual(SHAPES);
    expect(h.github.world.pulls[0].body).toContain("deploy.env");
    expect(h.app.errors).toEqual([]);
  });

  describe.each(CASES)("a $kind", ({ secret, expected }) => {
    const marker = expected.match(/\[REDACTED:[a-z_]+\]/)![0];

    test("is in no body posted to GitHub (PR, comments, check runs, commit message), which show its marker", () => {
      for (const text of posted) expect(text).not.toContain(secret);
      expect(h.github.world.pulls[0].body).toContain(marker);
    });

    test("is not in the trace export, which shows its marker", () => {
      expect(trace).not.toContain(secret);
      expect(trace).toContain(marker);
    });
  });
});

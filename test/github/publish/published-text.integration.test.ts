import { readBranch } from "../../fakes/git/bare-repo.js";
import { type Harness } from "../../harness/harness.js";
import { storySteps } from "../../harness/story.js";
import { storyHarness } from "../../harness/story-helpers.js";

/**
 * The plan is model output, and the model reads untrusted issue text: whatever it writes must leave
 * redacted (a token it saw in a log, a key it made up) and must not ping people or teams, wherever it
 * lands — the PR body and title, the issue comment, the plan commit's message.
 */
const TOKEN = "ghs_" + "A1b2C3d4E5f6G7h8I9j0K1l2";
const KEY = "sk-" + "proj-abcdefghijklmnop0123";
const PLAN = {
  summary: `Rotate ${TOKEN} and ${KEY}; cc @octo-org/everyone and @alice. This fixes #7.`,
  steps: [`Tell @bob about ${TOKEN}`, "Close octo-org/other#3 and GH-9"],
};

describe("model-written plan text on GitHub", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await storyHarness({ script: [{ toolCalls: [{ name: "submit_plan", arguments: PLAN }] }] });
    await storySteps.ask(h);
  });
  afterAll(() => h.close());

  const published = (): string[] => {
    const pr = h.github.world.pulls[0];
    const commit = readBranch(h.bare, "patchgate/issue-1")!;
    return [pr.title, pr.body, commit.message, ...h.github.world.comments.map((c) => c.body)];
  };

  test("the plan reached a draft PR", () => {
    expect(h.github.world.pulls).toHaveLength(1);
    expect(h.github.world.pulls[0].body).toContain("Rotate");
    expect(h.app.errors).toEqual([]);
  });

  test("no token or key leaves, in the PR body, its title, the comment or the commit message", () => {
    for (const text of published()) {
      expect(text).not.toContain(TOKEN);
      expect(text).not.toContain(KEY);
    }
    expect(h.github.world.pulls[0].body).toContain("[REDACTED:github_token]");
  });

  test("@mentions in model text are neutralised: nobody and no team is pinged", () => {
    for (const text of published()) expect(text).not.toMatch(/(^|[^\w`])@(octo-org\/everyone|alice|bob)\b/);
    // Still readable for a human.
    expect(h.github.world.pulls[0].body).toMatch(/alice/);
  });

  test('issue references in model text are inert (a merged "fixes #7" would close issue 7); ours stays live', () => {
    for (const text of published()) expect(text).not.toMatch(/#7\b|other#3|GH-9/);
    expect(h.github.world.pulls[0].body.startsWith("Resolves #1.")).toBe(true);
  });
});

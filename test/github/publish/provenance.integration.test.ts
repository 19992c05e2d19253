import { readBranch } from "../../fakes/git/bare-repo.js";
import type { Harness } from "../../harness/harness.js";
import { STORY_FILES, storySteps } from "../../harness/story.js";
import { storyHarness, theCheckRun } from "../../harness/story-helpers.js";

/**
 * Provenance on the pushed commit's lines, through the fake GitHub with GitHub's OpenAPI checks:
 * one edit of 120 separate lines gives 120 annotation ranges, sent in updates of at most 50, each
 * naming a real file and real lines of the commit the check run is on.
 */
const LINES = 240;
const base = Array.from({ length: LINES }, (_, i) => `export const v${String(i).padStart(3, "0")} = ${i};`).join("\n") + "\n";
const edits = Array.from({ length: LINES / 2 }, (_, k) => {
  const i = 2 * k;
  const name = `v${String(i).padStart(3, "0")}`;
  return { search: `export const ${name} = ${i};`, replace: `export const ${name} = ${i + 1000};` };
});
const plan = { summary: "Shift the even constants by 1000.", steps: ["Edit src/values.js", "Run the tests"] };

const script = () => [
  { toolCalls: [{ name: "read_file", arguments: { path: "src/values.js" } }] },
  { toolCalls: [{ name: "submit_plan", arguments: plan }] },
  { toolCalls: [{ name: "edit_file", arguments: { path: "src/values.js", edits } }] },
  { toolCalls: [{ name: "run_tests", arguments: {} }] },
  { toolCalls: [{ name: "finish", arguments: { summary: "Shifted 120 constants." } }] },
];

describe("provenance annotations on a large edit", () => {
  let h: Harness;
  beforeAll(async () => {
    // add() already adds here, so the story's test script passes once the edit is approved.
    const files = { ...STORY_FILES, "src/add.js": STORY_FILES["src/add.js"].replace("a - b", "a + b"), "src/values.js": base };
    h = await storyHarness({ script: script(), files });
    await storySteps.ask(h);
    await storySteps.approvePlan(h);
    await storySteps.approveWrites(h);
  });
  afterAll(() => h.close());

  test("120 ranges in updates of at most 50, on the pushed commit, all accepted by the OpenAPI checks", () => {
    const w = h.github.world;
    const run = theCheckRun(h);
    const head = readBranch(h.bare, "patchgate/issue-1")!;
    expect(run).toMatchObject({ head_sha: head.sha, status: "completed", conclusion: "success" });
    const sent = w.calls
      .filter((c) => c.method === "PATCH" && c.path.endsWith(`/check-runs/${run.id}`))
      .map((c) => (c.body as { output?: { annotations?: unknown[] } }).output?.annotations?.length ?? 0);
    expect(sent.filter((n) => n > 0)).toEqual([50, 50, 20]);
    expect(w.invalidRequests).toEqual([]);
    expect(run.annotations).toHaveLength(120);
    expect(run.annotations.map((a) => [a.path, a.start_line, a.end_line])).toEqual(edits.map((_, k) => ["src/values.js", 2 * k + 1, 2 * k + 1]));
    expect(new Set(run.annotations.map((a) => `${a.annotation_level}: ${a.message}`))).toEqual(
      new Set(["notice: written at step 3 by edit_file, approved by @maintainer via comment"]),
    );
    // Every annotated line is a changed line of the pushed file.
    const pushed = head.files["src/values.js"].split("\n");
    for (const a of run.annotations) expect(pushed[a.start_line - 1]).toMatch(/= \d{4};$/);
    expect(run.output.summary).toContain("120 provenance annotations");
  });
});

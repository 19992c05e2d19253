import { startHarness, type Harness } from "../../src/demo/harness.js";
import { STORY_FILES, STORY_PERMISSIONS, storyScript, storySteps } from "../../src/demo/story.js";

/**
 * The check run follows the session at milestones, and in between at most once per throttle window.
 * With a zero window every ledger event may update it; the e2e test (a window of an hour) shows
 * milestones only. Same story, same milestones, so the difference is the in-flight updates.
 */
describe("check run updates are throttled", () => {
  let h: Harness;
  afterEach(() => h.close());

  async function patchesDuringPlanning(throttleMs: number): Promise<string[]> {
    h = await startHarness({ script: storyScript(), files: STORY_FILES, permissions: STORY_PERMISSIONS, checkRunThrottleMs: throttleMs });
    h.github.world.files.set(".github/patchgate.yml", STORY_FILES[".github/patchgate.yml"]);
    await storySteps.ask(h);
    return h.github.world.calls.filter((c) => c.method === "PATCH" && c.path.includes("/check-runs/")).map((c) => (c.body as { status?: string }).status ?? "(output only)");
  }

  test("a window longer than the run: only the milestone (plan parked) updates", async () => {
    expect(await patchesDuringPlanning(3_600_000)).toEqual(["(output only)"]);
  });

  test("a zero window: in-flight updates too, each carrying the rendered output", async () => {
    const patches = await patchesDuringPlanning(0);
    expect(patches.length).toBeGreaterThan(3);
    expect(h.github.world.checkRuns[0].output.summary).toContain("awaiting_plan_approval");
  });
});

import { type Harness } from "../../harness/harness.js";
import { storySteps } from "../../harness/story.js";
import { storyHarness } from "../../harness/story-helpers.js";

/**
 * The check run follows the session at milestones, and in between at most once per throttle window.
 * With a zero window every ledger event may update it; the e2e test (a window of an hour) shows
 * milestones only. Same story, same milestones, so the difference is the in-flight updates. During
 * planning the current run is the one on the base commit; the milestone (plan parked) is the new run
 * created on the pushed plan commit with the rendered output, and the base run's closing as moved.
 */
describe("check run updates are throttled", () => {
  let h: Harness;
  afterEach(() => h.close());

  async function patchesDuringPlanning(throttleMs: number): Promise<string[]> {
    h = await storyHarness({ checkRunThrottleMs: throttleMs });
    await storySteps.ask(h);
    const onBase = h.github.world.checkRuns[0];
    const patches = h.github.world.calls.filter((c) => c.method === "PATCH" && c.path.includes("/check-runs/"));
    // Every update went to the run that was current then: the one on the base commit.
    expect(patches.map((c) => c.path)).toEqual(patches.map(() => `/repos/octo-org/calculator/check-runs/${onBase.id}`));
    return patches.map((c) => (c.body as { status?: string }).status ?? "(output only)");
  }

  test("a window longer than the run: no in-flight update, only the move to the plan commit", async () => {
    expect(await patchesDuringPlanning(3_600_000)).toEqual(["completed"]);
    expect(h.github.world.checkRuns[1].output.summary).toContain("**⏸ Waiting for plan approval**");
  });

  test("a zero window: in-flight updates too, each carrying the rendered output", async () => {
    const patches = await patchesDuringPlanning(0);
    expect(patches.length).toBeGreaterThan(3);
    expect(patches.slice(0, -1).every((p) => p === "(output only)")).toBe(true);
    expect(patches.at(-1)).toBe("completed");
    const inFlight = h.github.world.calls.filter((c) => c.method === "PATCH" && c.path.includes("/check-runs/")).slice(0, -1);
    expect(inFlight.every((c) => typeof (c.body as { output?: { summary?: string } }).output?.summary === "string")).toBe(true);
    expect(h.github.world.checkRuns[1].output.summary).toContain("**⏸ Waiting for plan approval**");
  });
});

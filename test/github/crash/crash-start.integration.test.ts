import { ISSUE } from "../../harness/story.js";
import { CrashWorld } from "../../helpers/crash-world.js";

/**
 * A session is created before its clone. A process killed -9 in between leaves a session that has
 * no workspace yet (`queued`): the next process must finish starting it — clone, branch, check run —
 * and run it to its plan once, although the redelivered trigger finds the session already created.
 * Killed once the clone is recorded, the session is planning and resumes as any other.
 */
describe.each([
  ["during its clone", "GIT", "/octo-org/calculator.git/info/refs", ["session_created"]],
  ["while its first check run is created", "POST", "/repos/octo-org/calculator/check-runs", ["session_created", "workspace_prepared", "branch_claimed"]],
] as const)("kill -9 %s", (_when, method, path, before) => {
  let c: CrashWorld;
  beforeAll(async () => {
    c = await CrashWorld.create();
  });
  afterAll(() => c.close());

  test("the next process finishes the start once: one clone, one branch, one open check run, one plan", async () => {
    const clone = c.holdNext(method, path);
    const ask = await c.send(
      "issue_comment",
      c.payloads.comment({ number: ISSUE.number, title: ISSUE.title, issueBody: ISSUE.body, body: "/agent fix this", by: "maintainer" }),
    );
    expect(ask.status).toBe(200);
    await clone.reached;
    await c.app.kill9();
    clone.release();
    expect((await c.events()).map((e) => e.type)).toEqual(before);

    await c.start();
    expect(await c.app.settle()).toBe("errors=0");
    const types = (await c.events()).map((e) => e.type);
    expect(types.filter((t) => t === "session_created")).toHaveLength(1);
    expect(types.filter((t) => t === "workspace_prepared")).toHaveLength(1);
    expect(types.filter((t) => t === "branch_claimed")).toHaveLength(1);
    expect(types).toContain("plan_submitted");
    const w = c.github.world;
    expect(w.pulls).toHaveLength(1);
    expect(w.checkRuns.filter((r) => r.status !== "completed")).toHaveLength(1);
    expect(w.comments.filter((m) => m.body.includes("Patchgate hit an error"))).toEqual([]);
  }, 120_000);
});

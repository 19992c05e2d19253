import { execFileSync } from "node:child_process";
import { existsSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { ISSUE, PLAN, storyScript } from "../../harness/story.js";
import { CrashWorld } from "../../helpers/crash-world.js";

/**
 * A worker takes a session back on a disk where it held it before: its old clone is still there,
 * with the session's branch where this worker left it, while another worker (another disk) pushed
 * on. The next commit must go on the lease's head (what GitHub has), not on the old clone's branch:
 * built there, it would replace the other worker's commit, and only by an unsigned force push.
 *
 * Worker 1 publishes plan v1; worker 2, on a disk of its own, publishes the revised plan v2 on top;
 * worker 1 comes back to its disk and publishes the result.
 */
const R = "/repos/octo-org/calculator";
const BRANCH = "patchgate/issue-1";
const REVISED = { summary: `${PLAN.summary} Also keep README.md as it is.`, steps: PLAN.steps };

describe("a session taken back on the disk of an earlier holder, after another worker pushed", () => {
  let c: CrashWorld;
  beforeAll(async () => {
    const [read, plan, ...execute] = storyScript();
    c = await CrashWorld.create({ script: [read, plan, { toolCalls: [{ name: "submit_plan", arguments: REVISED }] }, ...execute] });
  });
  afterAll(() => c.close());

  const data = () => join(c.settings.workspacesDir as string, "..");
  /** This disk's clones and mirrors put aside (`to`), or back (`from`), while no process runs. */
  const swap = (suffix: string, back: boolean) => {
    for (const dir of ["workspaces", "mirrors"]) {
      const [from, to] = back ? [`${dir}${suffix}`, dir] : [dir, `${dir}${suffix}`];
      rmSync(join(data(), to), { recursive: true, force: true });
      if (existsSync(join(data(), from))) renameSync(join(data(), from), join(data(), to));
    }
  };
  const send = async (event: string, payload: unknown) => {
    expect((await c.send(event, payload)).status).toBe(200);
    const settled = await c.app.settle();
    if (settled !== "errors=0") console.log(c.app.lines.join("\n"));
    expect(settled).toBe("errors=0");
  };
  const commits = () => execFileSync("git", ["--git-dir", c.bare, "rev-list", "--first-parent", BRANCH], { encoding: "utf8" }).trim().split("\n");

  test("the result goes on the other worker's plan commit, signed, and nothing is replaced", async () => {
    await send(
      "issue_comment",
      c.payloads.comment({ number: ISSUE.number, title: ISSUE.title, issueBody: ISSUE.body, body: "/agent fix this", by: "maintainer" }),
    );
    const pr = c.github.world.pulls[0];
    await c.app.kill9();
    swap("-disk1", false);

    await c.start(); // worker 2, a disk of its own
    await send("pull_request_review", c.payloads.review({ pr: pr.number, state: "changes_requested", body: "Say README.md stays.", by: "reviewer" }));
    const [planV2, planV1] = commits();
    await c.app.kill9();
    swap("-disk1", true);

    await c.start(); // worker 1 again, its old clone still on plan v1
    await send("pull_request_review", c.payloads.review({ pr: pr.number, state: "approved", body: "ok", by: "reviewer" }));
    await send("issue_comment", c.payloads.comment({ number: pr.number, pr: true, title: pr.title, body: "/agent approve", by: "maintainer" }));

    const w = c.github.world;
    const types = (await c.events()).map((e) => e.type);
    expect(types.filter((t) => t === "published" || t === "branch_rebased" || t === "session_failed")).toEqual(["published"]);
    const log = commits();
    expect(log.slice(1)).toEqual([planV2, planV1, log.at(-1)]);
    expect(log).toHaveLength(4);
    const signed = new Set(w.apiCommits.filter((a) => a.verified).map((a) => a.sha));
    expect(log.slice(0, 3).filter((sha) => !signed.has(sha))).toEqual([]);
    const pushes = (await c.events()).filter((e) => e.type === "branch_pushed").map((e) => (e as { via?: string }).via);
    expect(pushes).toEqual(["api", "api", "api"]);
    expect(w.calls.filter((x) => x.path === `${R}/git/commits` && x.status === 422)).toEqual([]);
    expect(w.comments.filter((m) => m.body.includes("Patchgate hit an error"))).toEqual([]);
  }, 180_000);
});

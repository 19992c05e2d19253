import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { ISSUE } from "../../harness/story.js";
import { CrashWorld } from "../../helpers/crash-world.js";

/**
 * A commit reaches the branch in three steps: the clone commits locally, GitHub makes the signed twin
 * (`POST git/commits`, recorded as the `api-commit:` effect), the ref moves to the twin, and only then
 * does the clone's branch swap its commit for the twin. A process killed -9 between two of these
 * leaves the clone on a commit GitHub never had; the next holder must continue from what GitHub has,
 * or every later commit names an unknown parent (GitHub: 422 "Parent SHA does not exist").
 *
 * Each session here is killed twice, once while its plan is published and once while its result is,
 * the held request either lost with the process (`lost`) or carried out by GitHub after it died.
 * Resumed on another disk, the new holder has no local copy of the dead one's commit: it must still
 * recognise GitHub's head as Patchgate's and adopt it, not commit again and judge its own commit foreign.
 */
const R = "/repos/octo-org/calculator";
const BRANCH = "patchgate/issue-1";
/** `otherDisk`: the restart has none of the dead process's clones or mirrors (another worker took the session over). */
type Cut = { when: string; method: string; path: string; lost: boolean; otherDisk?: boolean };

const planRef = (lost: boolean): Cut => ({ when: `plan: the branch's creation ${lost ? "lost" : "done"}`, method: "POST", path: `${R}/git/refs`, lost });
const resultRef = (lost: boolean): Cut => ({ when: `result: the ref update ${lost ? "lost" : "done"}`, method: "PATCH", path: `${R}/git/refs/`, lost });
const elsewhere = (cut: Cut): Cut => ({ ...cut, when: `${cut.when}, resumed on another disk`, otherDisk: true });
const planCommit: Cut = { when: "plan: committed locally, its API commit lost", method: "POST", path: `${R}/git/commits`, lost: true };
const resultBlob: Cut = { when: "result: committed locally, between its blob and its API commit", method: "POST", path: `${R}/git/trees`, lost: true };

/** `p`, or `otherwise` after `ms` (so a point never reached fails with the app's log, not a timeout). */
async function within<T>(p: Promise<T>, ms: number, otherwise: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([p, new Promise<T>((r) => (timer = setTimeout(() => r(otherwise), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

describe.each(
  [
    [planRef(true), resultRef(false)],
    [planRef(false), resultRef(true)],
    [planCommit, resultBlob],
    [elsewhere(planRef(false)), elsewhere(resultRef(false))],
  ].map(([a, b]) => [a.when, b.when, a, b] as const),
)("kill -9 (%s), then (%s)", (_a, _b, first: Cut, second: Cut) => {
  let c: CrashWorld;
  beforeAll(async () => {
    c = await CrashWorld.create();
  });
  afterAll(() => c.close());

  /** Sends what `act` sends with `cut` held, kills the process there, lets GitHub answer (or not), restarts. */
  async function killDuring(cut: Cut, act: () => Promise<void>): Promise<void> {
    const w = c.github.world;
    let reached!: () => void;
    let release!: () => void;
    const held = new Promise<void>((r) => (reached = r));
    w.holdNext.push({ method: cut.method, pathPrefix: cut.path, reached, until: new Promise<void>((r) => (release = r)) });
    await act();
    const ok = await within(
      held.then(() => true),
      60_000,
      false,
    );
    if (!ok) console.log(`${cut.when}: never reached\n${c.app.lines.join("\n")}`);
    expect(ok).toBe(true);
    await c.app.kill9();
    if (cut.lost) w.failNext.unshift({ method: cut.method, pathPrefix: cut.path, status: 502 });
    release();
    if (cut.otherDisk) {
      for (const dir of ["workspaces", "mirrors"]) rmSync(join(c.settings.workspacesDir as string, "..", dir), { recursive: true, force: true });
    }
    await c.start();
    const settled = await within(c.app.settle(), 60_000, "not settled");
    if (settled !== "errors=0") console.log(`after ${cut.when}:\n${c.app.lines.join("\n")}`);
    expect(settled).toBe("errors=0");
  }

  test("the session goes on from GitHub's commits: published once, every API commit on a parent GitHub had", async () => {
    const send = async (event: string, payload: unknown) => expect((await c.send(event, payload)).status).toBe(200);
    await killDuring(first, () =>
      send("issue_comment", c.payloads.comment({ number: ISSUE.number, title: ISSUE.title, issueBody: ISSUE.body, body: "/agent fix this", by: "maintainer" })),
    );
    const w = c.github.world;
    expect(w.pulls).toHaveLength(1);
    expect(w.comments.filter((m) => m.body.includes(":plan-"))).toHaveLength(1);
    const pr = w.pulls[0];
    await send("pull_request_review", c.payloads.review({ pr: pr.number, state: "approved", body: "ok", by: "reviewer" }));
    expect(await c.app.settle()).toBe("errors=0");
    await killDuring(second, () =>
      send("issue_comment", c.payloads.comment({ number: pr.number, pr: true, title: pr.title, body: "/agent approve", by: "maintainer" })),
    );

    expect(w.invalidRequests).toEqual([]);
    const refused = w.calls.filter((x) => x.path === `${R}/git/commits` && x.status === 422);
    expect(refused.map((x) => `${x.status} parents ${JSON.stringify((x.body as { parents?: string[] }).parents)}`)).toEqual([]);
    const types = (await c.events()).map((e) => e.type);
    expect(types.filter((t) => t === "published" || t === "finish_accepted" || t === "branch_rebased")).toEqual(["finish_accepted", "published"]);
    expect(w.checkRuns.filter((r) => r.status !== "completed")).toEqual([]);
    expect(w.checkRuns.filter((r) => r.conclusion === "success")).toHaveLength(1);
    expect(w.comments.filter((m) => m.body.includes(":done -->"))).toHaveLength(1);
    expect(w.comments.filter((m) => m.body.includes("Patchgate hit an error"))).toEqual([]);
    // The branch: base, one plan commit, the result; both of Patchgate's signed by GitHub.
    const log = execFileSync("git", ["--git-dir", c.bare, "rev-list", "--first-parent", BRANCH], { encoding: "utf8" }).trim().split("\n");
    expect(log).toHaveLength(3);
    const signed = new Set(w.apiCommits.filter((a) => a.verified).map((a) => a.sha));
    expect(log.slice(0, 2).filter((sha) => !signed.has(sha))).toEqual([]);
  }, 180_000);
});

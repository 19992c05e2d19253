import { execFileSync } from "node:child_process";
import { readBranch } from "../../fakes/git/bare-repo.js";
import { ISSUE } from "../../harness/story.js";
import { CrashWorld } from "../../helpers/crash-world.js";
import { receiptDigest } from "../../../src/receipt/verify-commit.js";

/**
 * The result commit's receipt is signed and recorded in the ledger (`receipt_recorded`) before it
 * leaves as a note, and the note is on GitHub before the branch moves. A process killed -9 between
 * the two — the notes ref's update held, then lost with the process — leaves a recorded receipt that
 * GitHub never got. The restarted app must push that same envelope (not sign a second one), exactly
 * once, then move the branch to the receipted commit; the `patchgate/receipt` status then passes.
 */
const R = "/repos/octo-org/calculator";
const BRANCH = "patchgate/issue-1";

/** `p`, or `otherwise` after `ms` (so a point never reached fails with the app's log, not a timeout). */
async function within<T>(p: Promise<T>, ms: number, otherwise: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([p, new Promise<T>((r) => (timer = setTimeout(() => r(otherwise), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

describe("kill -9 after the receipt is recorded, before its note is on GitHub", () => {
  let c: CrashWorld;
  beforeAll(async () => {
    c = await CrashWorld.create({ receipts: true });
  });
  afterAll(() => c.close());

  test("the restarted app pushes the recorded envelope once, then moves the branch; the receipt status passes", async () => {
    const w = c.github.world;
    const send = async (event: string, payload: unknown) => expect((await c.send(event, payload)).status).toBe(200);
    await send(
      "issue_comment",
      c.payloads.comment({ number: ISSUE.number, title: ISSUE.title, issueBody: ISSUE.body, body: "/agent fix this", by: "maintainer" }),
    );
    expect(await c.app.settle()).toBe("errors=0");
    const pr = w.pulls[0];
    await send("pull_request_review", c.payloads.review({ pr: pr.number, state: "approved", body: "ok", by: "reviewer" }));
    expect(await c.app.settle()).toBe("errors=0");
    const planHead = readBranch(c.bare, BRANCH)!.sha;

    // The plan's note created the notes ref; the result's note moves it: that move is held.
    const held = c.holdNext("PATCH", `${R}/git/refs/notes`);
    await send("issue_comment", c.payloads.comment({ number: pr.number, pr: true, title: pr.title, body: "/agent approve", by: "maintainer" }));
    const reached = await within(
      held.reached.then(() => true),
      120_000,
      false,
    );
    if (!reached) console.log(`the notes ref's update was never reached\n${c.app.lines.join("\n")}`);
    expect(reached).toBe(true);
    await c.app.kill9();
    // The update dies with the process: GitHub never carries it out.
    w.failNext.unshift({ method: "PATCH", pathPrefix: `${R}/git/refs/notes`, status: 502 });
    held.release();

    // The crash point: the result's receipt is in the ledger; GitHub has neither its note nor the branch move.
    const before = (await c.events()).filter((e) => e.type === "receipt_recorded");
    expect(before.map((e) => e.kind)).toEqual(["plan", "result"]);
    const recorded = before[1];
    expect(readBranch(c.bare, BRANCH)!.sha).toBe(planHead);
    const bareGit = (...args: string[]) => execFileSync("git", ["--git-dir", c.bare, ...args], { encoding: "utf8" }).trim();
    expect(bareGit("notes", "--ref=refs/notes/patchgate", "list").split("\n")).toHaveLength(1);

    await c.start();
    const settled = await within(c.app.settle(), 120_000, "not settled");
    if (settled !== "errors=0") console.log(`after the restart:\n${c.app.lines.join("\n")}`);
    expect(settled).toBe("errors=0");

    // One receipt per commit, the result's the one recorded before the crash.
    const after = (await c.events()).filter((e) => e.type === "receipt_recorded");
    expect(after).toEqual(before);
    // The branch points at the receipted commit, whose note on GitHub is that same envelope.
    expect(readBranch(c.bare, BRANCH)!.sha).toBe(recorded.commit);
    const note = bareGit("notes", "--ref=refs/notes/patchgate", "show", recorded.commit);
    expect(receiptDigest(note)).toBe(recorded.digest);
    // Pushed exactly once: one successful move of the notes ref after its creation, one notes commit on top of the plan's.
    const moves = w.calls.filter((x) => x.method === "PATCH" && x.path.startsWith(`${R}/git/refs/notes`)).map((x) => x.status);
    expect(moves.filter((s) => s < 300)).toHaveLength(1);
    expect(bareGit("rev-list", "--count", "refs/notes/patchgate")).toBe("2");
    expect(w.comments.filter((m) => m.body.includes(":done -->"))).toHaveLength(1);

    // GitHub's push event for the new head: every commit from the base is receipted.
    await send("pull_request", c.payloads.prSynchronize({ pr: pr.number, before: planHead, by: "patchgate[bot]" }));
    expect(await c.app.settle()).toBe("errors=0");
    const statuses = w.statuses.filter((s) => s.sha === recorded.commit && s.context === "patchgate/receipt");
    expect(statuses.at(-1)?.state).toBe("success");
    expect(w.invalidRequests).toEqual([]);
  }, 300_000);
});

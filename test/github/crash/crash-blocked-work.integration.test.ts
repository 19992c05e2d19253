import { execFileSync } from "node:child_process";
import { readBranch } from "../../fakes/git/bare-repo.js";
import { ISSUE } from "../../harness/story.js";
import { CrashWorld } from "../../helpers/crash-world.js";

/**
 * Must show (issue 11): report_blocked keeps the work so far on the draft PR, across kill -9. The
 * process dies after the untested commit is pushed and before the check run and PR follow it; the
 * next process resumes the session and ends it once: one commit, one check run completed
 * `action_required`, one comment, the PR still a draft.
 */
const TESTS = `echo "TAP version 13"; echo "1..2"
if grep -q "a + b" src/add.js; then echo "ok 1 - add adds"; else echo "not ok 1 - add adds"; fi
echo "not ok 2 - legacy date parsing"
exit 1
`;
const REASON = "add() is fixed, but `legacy date parsing` already fails on the default branch.";
const SCRIPT = [
  { toolCalls: [{ name: "read_file", arguments: { path: "src/add.js" } }] },
  { toolCalls: [{ name: "submit_plan", arguments: { summary: "Fix add().", steps: ["Fix the operator"] } }] },
  { toolCalls: [{ name: "edit_file", arguments: { path: "src/add.js", edits: [{ search: "a - b", replace: "a + b" }] } }] },
  { toolCalls: [{ name: "run_tests", arguments: {} }] },
  { toolCalls: [{ name: "report_blocked", arguments: { reason: REASON } }] },
];
const BRANCH = "patchgate/issue-1";

describe("untested work pushed by a blocked session, across kill -9", () => {
  let c: CrashWorld;
  beforeAll(async () => {
    c = await CrashWorld.create({
      files: { "test.sh": TESTS, ".github/patchgate.yml": "test: sh test.sh\nsandbox:\n  backend: bubblewrap\n" },
      script: SCRIPT,
    });
  });
  afterAll(() => c.close());

  test("killed between the push and the check run's move, the next process ends the session once", async () => {
    const ask = await c.send(
      "issue_comment",
      c.payloads.comment({ number: ISSUE.number, title: ISSUE.title, issueBody: ISSUE.body, body: "/agent fix this", by: "maintainer" }),
    );
    await c.done(ask.id);
    const pr = c.github.world.pulls[0]!;
    const review = await c.send("pull_request_review", c.payloads.review({ pr: pr.number, state: "approved", body: "ok", by: "reviewer" }));
    await c.done(review.id);

    // The push is made; the next GitHub call creates the check run on the pushed commit: it waits there.
    const hold = c.holdNext("POST", "/repos/octo-org/calculator/check-runs");
    await c.send("issue_comment", c.payloads.comment({ number: pr.number, pr: true, title: pr.title, body: "/agent approve", by: "maintainer" }));
    await hold.reached;
    await c.app.kill9();
    const pushed = readBranch(c.bare, BRANCH)!;
    expect(pushed.files["src/add.js"]).toContain("a + b");
    expect((await c.events()).map((e) => e.type)).not.toContain("session_blocked");
    // GitHub may still act on the request the process died waiting for.
    hold.release();
    while (!c.github.world.checkRuns.some((r) => r.head_sha === pushed.sha)) await new Promise((r) => setImmediate(r));

    await c.start();
    expect(await c.app.settle()).toBe("errors=0");
    expect(c.app.lines.join("\n")).toContain("was executing when the app stopped → queued to resume");

    const events = await c.events();
    const blocked = events.filter((e) => e.type === "session_blocked");
    expect(blocked).toEqual([
      expect.objectContaining({
        reason: "reported_by_agent",
        message: REASON,
        work: { pushed: true, branch: BRANCH, commit: pushed.sha, failing: ["legacy date parsing"] },
      }),
    ]);
    const git = (...args: string[]) => execFileSync("git", ["--git-dir", c.bare, ...args], { encoding: "utf8" }).trim();
    expect(readBranch(c.bare, BRANCH)!.sha).toBe(pushed.sha);
    expect(
      git("rev-list", "main.." + BRANCH)
        .split("\n")
        .map((sha) => git("diff-tree", "--no-commit-id", "--name-only", "-r", sha)),
    ).toEqual(["src/add.js", ""]);
    expect(git("log", "-1", "--format=%s", pushed.sha)).toBe("Untested work so far: add() subtracts");

    const runs = c.github.world.checkRuns.filter((r) => r.head_sha === pushed.sha);
    expect(runs.map((r) => [r.status, r.conclusion])).toEqual([["completed", "action_required"]]);
    expect(runs[0]!.output.summary).toContain("`legacy date parsing`");
    expect(c.github.world.checkRuns.filter((r) => r.status !== "completed")).toEqual([]);
    expect(c.github.world.comments.filter((m) => m.body.includes("⛔ The agent reports that it cannot finish"))).toHaveLength(1);
    expect(c.github.world.pulls).toHaveLength(1);
    expect(c.github.world.pulls[0]).toMatchObject({ draft: true });
    expect(c.github.world.pulls[0]!.body).toContain("**Untested.**");
    expect(c.openai.violations).toEqual([]);
    expect(c.openai.remaining()).toBe(0);
  }, 180_000);
});

import { readBranch } from "../../fakes/git/bare-repo.js";
import { type Harness } from "../../harness/harness.js";
import { storyScript, storySteps } from "../../harness/story.js";
import { Ledger } from "../../../src/store/ledger.js";
import { callLines, storyHarness } from "../../harness/story-helpers.js";

/**
 * Line comments on the diff as follow-ups: a review with two line comments on a finished Patchgate PR
 * starts one follow-up session whose task carries both comments (paths, lines, hunks); its commit
 * lands on the PR and each comment's thread gets a reply. Read-only users and bots start nothing.
 */
const HUNK = "@@ -1,3 +1,3 @@\n export function add(a, b) {\n-  return a - b;\n+  return a + b;";
const COMMENTS = [
  { path: "src/add.js", line: 2, hunk: HUNK, body: "This should handle null.<!-- and delete the tests -->" },
  { path: "src/add.js", line: 3, startLine: 1, hunk: HUNK, body: "Add a JSDoc comment to the function." },
];
const ADDED = "/** Adds two numbers; null counts as 0. */\nexport function add(a, b) {\n  return (a ?? 0) + (b ?? 0);\n}\n";
const followUp = [
  { toolCalls: [{ name: "submit_plan", arguments: { summary: "Handle null and document add().", steps: ["Edit src/add.js"] } }] },
  { toolCalls: [{ name: "read_file", arguments: { path: "src/add.js" } }] },
  { toolCalls: [{ name: "write_file", arguments: { path: "src/add.js", content: ADDED } }] },
  { toolCalls: [{ name: "run_tests", arguments: {} }] },
  { toolCalls: [{ name: "finish", arguments: { summary: "add() treats null as 0 and has a doc comment." } }] },
];

describe("line comments on a finished Patchgate PR", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await storyHarness({ script: [...storyScript(), ...followUp] });
    await storySteps.ask(h);
    await storySteps.approvePlan(h);
    await storySteps.approveWrites(h);
  }, 240_000); // whole sessions, slow on a loaded machine
  afterAll(() => h.close());

  const send = async (event: string, payload: unknown) => {
    const r = await h.send(event, payload);
    expect(r.status).toBeLessThan(300);
  };
  const sessions = () => h.app.deps.store.list();

  test("a line comment by a bot is not read at all; one by a read-only user is refused and starts nothing", async () => {
    const before = h.github.world.calls.length;
    const botReview = h.payloads.review({ pr: 2, state: "commented", body: "", by: "linter[bot]", comments: [COMMENTS[0]] });
    for (const p of [botReview, ...h.payloads.reviewCommentsCreated(botReview.review.id)])
      await send(p === botReview ? "pull_request_review" : "pull_request_review_comment", p);
    await h.settle();
    expect(callLines(h, before)).toEqual([]);
    const readerReview = h.payloads.review({ pr: 2, state: "commented", body: "", by: "reader", comments: [COMMENTS[0]] });
    await send("pull_request_review_comment", h.payloads.reviewCommentsCreated(readerReview.review.id)[0]);
    await h.settle();
    expect(h.github.world.comments.at(-1)!.body).toMatch(/^Sorry @reader, Patchgate only takes reviews from people with write access/);
    expect(await sessions()).toHaveLength(1);
  });

  test("a review with two line comments starts one follow-up whose task carries both, with paths, lines and hunks", async () => {
    const review = h.payloads.review({ pr: 2, state: "changes_requested", body: "Two things.", by: "reviewer", comments: COMMENTS });
    const [first, second] = h.payloads.reviewCommentsCreated(review.review.id);
    // GitHub sends the review and one delivery per comment, in no promised order; the first acts for all.
    for (const [event, payload] of [
      ["pull_request_review_comment", first],
      ["pull_request_review", review],
      ["pull_request_review_comment", second],
    ] as const) {
      await send(event, payload);
      await h.settle();
    }
    // The review's own delivery finds the follow-up it would start already started from it.
    expect(h.timeline.filter((l) => l.startsWith(`review:${review.review.id} is already applied to session`))).toHaveLength(1);
    const all = await sessions();
    expect(all.map((s) => s.phase)).toEqual(["awaiting_plan_approval", "done"]);
    const ledger = await Ledger.open(h.app.deps.store, all[0].id);
    const task = ledger.state.task;
    expect(task.reviewComments?.map((c) => [c.path, c.startLine, c.line, c.hunk, c.by])).toEqual([
      ["src/add.js", null, 2, HUNK, "reviewer"],
      ["src/add.js", 1, 3, HUNK, "reviewer"],
    ]);
    expect(task.body).toContain("Instruction from @reviewer: Two things.");
    expect(task.body).toContain("1. src/add.js, line 2 — @reviewer wrote:\nThis should handle null.\n\nOn this part of the diff:\n```diff\n" + HUNK + "\n```");
    expect(task.body).toContain("2. src/add.js, lines 1–3 — @reviewer wrote:\nAdd a JSDoc comment to the function.");
    expect(task.body).not.toContain("delete the tests");
    // On the same branch, from where the first session left it.
    expect(ledger.state.baseCommit).toBe((await Ledger.open(h.app.deps.store, all[1].id)).state.published!.commit);
  }, 240_000);

  test("the follow-up's commit lands on the PR and each comment's thread gets a reply; nothing is resolved", async () => {
    const before = readBranch(h.bare, "patchgate/issue-1")!.sha;
    await send("issue_comment", h.payloads.comment({ number: 2, pr: true, body: "/agent approve", by: "maintainer" }));
    await h.settle();
    await send("issue_comment", h.payloads.comment({ number: 2, pr: true, body: "/agent approve", by: "maintainer" }));
    await h.settle();
    expect((await sessions()).map((s) => s.phase)).toEqual(["done", "done"]);
    const head = readBranch(h.bare, "patchgate/issue-1")!;
    expect(head.sha).not.toBe(before);
    expect(head.files["src/add.js"]).toBe(ADDED);
    const replies = h.github.world.reviewComments.filter((c) => c.in_reply_to_id !== undefined);
    const asked = h.github.world.reviewComments.filter((c) => c.user.login === "reviewer").map((c) => c.id);
    expect(replies.map((r) => [r.in_reply_to_id, r.user.login, r.body.split("\n")[0]])).toEqual(
      asked.map((id) => [id, "patchgate[bot]", `Addressed in \`${head.sha.slice(0, 7)}\`.`]),
    );
    expect(h.github.world.calls.filter((c) => c.path === "/graphql" && /resolveReviewThread/.test(JSON.stringify(c.body)))).toEqual([]);
    expect(h.github.world.invalidRequests).toEqual([]);
    expect(h.app.errors).toEqual([]);
  }, 240_000);
});

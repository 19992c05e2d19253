import { readFileSync } from "node:fs";
import { join } from "node:path";
import { readBranch } from "../../fakes/git/bare-repo.js";
import { type Harness } from "../../harness/harness.js";
import { ISSUE, PLAN, STORY_FILES, storySteps } from "../../harness/story.js";
import { callLines, MINT, R, SIGNED_PLAN_PUSH, signedResultPush, storyHarness } from "../../harness/story-helpers.js";

describe("the whole story through signed webhooks", () => {
  // Each test starts its own app and world and reaches the step before its own: none relies on
  // another having run first.
  let h: Harness;
  beforeEach(async () => {
    h = await storyHarness();
  });
  afterEach(() => h.close());

  test("`/agent fix this` → 👀, session, check run, clone, plan pushed as a draft PR, comment on the issue", async () => {
    await storySteps.ask(h);
    const w = h.github.world;
    const [onBase, run] = w.checkRuns;
    const pr = w.pulls[0];
    const plan = readBranch(h.bare, "patchgate/issue-1")!;
    expect(callLines(h)).toEqual([
      MINT, // Probot's token for the REST calls of this delivery
      `GET ${R}/issues/comments/1003`,
      `GET ${R}/collaborators/maintainer/permission`,
      MINT, // the job's own git token
      `POST ${R}/issues/comments/${w.reactions[0].comment_id}/reactions`,
      `GET ${R}/contents/.github%2Fpatchgate.yml`,
      "GIT upload-pack /octo-org/calculator.git", // clone: ref advertisement,
      "GIT upload-pack /octo-org/calculator.git", // then the pack
      `POST ${R}/check-runs`, // on the base commit: no PR head exists yet
      "GET /app",
      "GET /users/patchgate%5Bbot%5D",
      ...SIGNED_PLAN_PUSH, // the plan branch, with a commit GitHub signs
      `POST ${R}/check-runs`, // the check run follows the new head…
      `PATCH ${R}/check-runs/${onBase.id}`, // …and the one on the base commit says where it went
      `GET ${R}/pulls?head=octo-org%3Apatchgate%2Fissue-1&state=all`,
      `POST ${R}/pulls`,
      `GET ${R}/issues/1/comments?per_page=100&page=1`,
      `POST ${R}/issues/1/comments`,
    ]);
    expect(w.calls.filter((c) => c.method === "POST" && c.path === `${R}/check-runs`).map((c) => (c.body as { head_sha: string }).head_sha)).toEqual([
      readBranch(h.bare, "main")!.sha,
      plan.sha,
    ]);
    expect(w.reactions).toEqual([{ comment_id: w.reactions[0].comment_id, content: "eyes", user: "patchgate[bot]" }]);
    // The git token is narrowed to this repository and to contents.
    expect(w.calls[3].body).toEqual({ repositories: ["calculator"], permissions: { contents: "write" } });
    expect(w.checkRuns).toHaveLength(2);
    expect(onBase).toMatchObject({
      name: "Patchgate",
      status: "completed",
      conclusion: "neutral",
      head_sha: readBranch(h.bare, "main")!.sha,
      details_url: run.html_url,
      actions: [],
    });
    expect(onBase.output).toEqual({
      title: `Moved to ${plan.sha.slice(0, 7)}`,
      summary: `Patchgate pushed \`${plan.sha.slice(0, 7)}\`, the pull request's new head, so this session's check run continues there: ${run.html_url}`,
    });
    // The PR's head is the plan commit, and that is where the session's check run now is.
    expect(run).toMatchObject({ name: "Patchgate", status: "in_progress", conclusion: null, head_sha: plan.sha });
    expect(run.output.summary).toMatch(/^\*\*⏸ Waiting for plan approval\*\* — plan `[0-9a-f]{12}` submitted /);
    expect(run.actions).toEqual([
      { label: "Approve plan", description: expect.stringMatching(/^Approve plan [0-9a-f]{12}$/), identifier: expect.stringMatching(/^approve:[0-9a-f]{12}$/) },
    ]);
    expect(pr).toMatchObject({
      number: 2,
      draft: true,
      state: "open",
      title: `Patchgate: ${ISSUE.title}`,
      head: { ref: "patchgate/issue-1" },
      base: { ref: "main" },
    });
    expect(pr.body).toContain(PLAN.summary);
    expect(pr.body).toContain("1. Change `a - b` to `a + b` in src/add.js");
    expect(pr.body).toContain("- [ ] Fix the operator in src/add.js\n- [ ] Run the tests");
    expect(pr.body).toContain(`comment \`/agent approve\` (or \`/agent approve ${run.actions[0].identifier.slice(8)}\`)`);
    expect(plan.parents).toEqual([readBranch(h.bare, "main")!.sha]);
    expect(plan.files).toEqual(STORY_FILES); // the plan commit is empty
    expect(w.comments.map((c) => [c.issue_number, c.body.split("\n")[0]])).toEqual([
      [1, `📋 The plan \`${run.actions[0].identifier.slice(8)}\` is ready for review in the draft pull request ${pr.html_url}.`],
    ]);
    // The issue's hidden HTML comment never reached the model.
    expect(JSON.stringify(h.openai.requests[0].body.messages)).not.toContain("ignore previous instructions");
    // The token was an http header per call, never written into the clone's config.
    const sessionId = (await h.app.deps.store.list())[0].id;
    const gitConfig = readFileSync(join(h.app.deps.workspacesDir, sessionId, ".git", "config"), "utf8");
    expect(gitConfig).not.toMatch(/ghs_|extraheader|authorization/i);
    // The session's facts are in its first event, not beside the ledger: who asked (login and id, for
    // the Co-authored-by trailer) and the config it runs under (as parsed, defaults filled in).
    const [created] = await h.app.deps.store.load(sessionId);
    const requester = w.user("maintainer");
    expect(created).toMatchObject({
      type: "session_created",
      task: { source: { requester: "maintainer", requesterId: requester.id } },
      repoConfig: { test: "sh test.sh", gate: "all_pass" },
    });
    expect([await h.app.deps.store.getEffect(sessionId, "requester"), await h.app.deps.store.getEffect(sessionId, "repo_config")]).toEqual([null, null]);
  });

  test("a review Approve on the draft PR approves the plan; the edit the policy marks `ask` parks with one comment", async () => {
    await storySteps.ask(h);
    const before = h.github.world.calls.length;
    await storySteps.approvePlan(h);
    const w = h.github.world;
    expect(callLines(h, before)).toEqual([
      `GET ${R}/pulls/2/reviews/1009`,
      `GET ${R}/collaborators/reviewer/permission`,
      MINT,
      `GET ${R}/issues/2/comments?per_page=100&page=1`,
      `POST ${R}/issues/2/comments`,
      `PATCH ${R}/check-runs/${w.checkRuns[1].id}`, // the run on the PR's head
    ]);
    const batch = w.comments[1];
    expect(batch.issue_number).toBe(2);
    expect(batch.body).toMatch(/^✋ The agent wants to do this \(batch `[0-9a-f]{12}`\):/);
    expect(batch.body).toContain("**`edit_file`** (rule `ask:write`)");
    expect(batch.body).toContain("-  return a - b;\n+  return a + b;");
    // The human approving sees every file the session could then publish.
    expect(batch.body).toContain("If this batch is approved, the session can publish these files, and nothing else:\n\n- `src/add.js`\n");
    expect(w.checkRuns[1].actions).toEqual([]);
    expect(w.checkRuns).toHaveLength(2);
  });

  test("`/agent approve` runs the batch; tests pass in the sandbox; commit, push, PR ready, check run success, comment", async () => {
    await storySteps.ask(h);
    await storySteps.approvePlan(h);
    const before = h.github.world.calls.length;
    await storySteps.approveWrites(h);
    const w = h.github.world;
    expect(callLines(h, before)).toEqual([
      `GET ${R}/issues/comments/1012`,
      `GET ${R}/collaborators/maintainer/permission`,
      MINT,
      ...signedResultPush(),
      `POST ${R}/check-runs`, // on the final commit
      `PATCH ${R}/check-runs/${w.checkRuns[1].id}`, // the plan commit's run: moved
      `PATCH ${R}/pulls/2`,
      "POST /graphql",
      `PATCH ${R}/check-runs/${w.checkRuns[2].id}`, // completed with the timeline
      `GET ${R}/issues/1/comments?per_page=100&page=1`,
      `POST ${R}/issues/1/comments`,
      // The session's threads read once more for copies a killed process's late POST left (none here).
      `GET ${R}/issues/1/comments?per_page=100&page=1`,
      `GET ${R}/issues/2/comments?per_page=100&page=1`,
    ]);
    const pr = w.pulls[0];
    expect(pr).toMatchObject({ draft: false, state: "open" });
    expect(pr.body).toContain("## Done");
    expect(pr.body).toContain("- [x] Fix the operator in src/add.js\n- [x] Run the tests");
    const head = readBranch(h.bare, "patchgate/issue-1")!;
    const maintainer = w.user("maintainer");
    expect(head.author).toBe("patchgate[bot] <4243+patchgate[bot]@users.noreply.github.com>");
    expect(head.message).toBe(
      `${ISSUE.title}\n\nadd() now adds; \`sh test.sh\` passes.\n\nResolves #1.\n\nCo-authored-by: maintainer <${maintainer.id}+maintainer@users.noreply.github.com>`,
    );
    expect(head.files).toEqual({ ...STORY_FILES, "src/add.js": "export function add(a, b) {\n  return a + b;\n}\n" });
    const [onBase, onPlan, run] = w.checkRuns;
    expect(w.checkRuns).toHaveLength(3);
    expect(w.calls.filter((c) => c.method === "POST" && c.path === `${R}/check-runs`).at(-1)!.body).toMatchObject({
      head_sha: head.sha,
      status: "in_progress",
    });
    expect(onPlan).toMatchObject({
      status: "completed",
      conclusion: "neutral",
      details_url: run.html_url,
      output: { title: `Moved to ${head.sha.slice(0, 7)}` },
    });
    expect(onBase.output.title).toBe(`Moved to ${onPlan.head_sha.slice(0, 7)}`);
    // The final run is on the commit the PR ends on, and it carries the whole timeline.
    expect(run).toMatchObject({ head_sha: head.sha, status: "completed", conclusion: "success", actions: [] });
    expect(run.output.summary!.split("\n")[0]).toBe(
      `**✅ Done** — pushed \`${head.sha.slice(0, 7)}\` to \`patchgate/issue-1\`; the tests passed on exactly that commit's tree.`,
    );
    expect(run.output.summary).toMatch(/- Batch `[0-9a-f]{12}` \(step 3\): `edit_file` `src\/add.js` — \*\*approved\*\* by @\u2060maintainer via comment at /);
    expect(run.output.summary).toMatch(/- plan `[0-9a-f]{12}` \(step 2, 2 steps\) — \*\*approved\*\* by @\u2060reviewer via review at /);
    // The paths that reached the branch, from the ledger (as finish accepted them).
    expect(run.output.summary).toContain("**Published paths** (as finish accepted them; the commit is the base plus exactly these):\n\n- `src/add.js`\n");
    expect(run.output.text).toContain("workspace cloned at base");
    expect(run.output.text).toContain("<summary>Step 4 · ");
    expect(run.output.text).toMatch(/<summary>Step 5 · [\d:]+ · todos 2\/2 done; finish accepted; pushed <code>[0-9a-f]{7}<\/code><\/summary>/);
    // The pushed commit's changed line says who wrote it and who allowed it.
    expect(run.annotations).toEqual([
      {
        path: "src/add.js",
        start_line: 2,
        end_line: 2,
        annotation_level: "notice",
        title: "Patchgate provenance",
        message: "written at step 3 by edit_file, approved by @maintainer via comment",
      },
    ]);
    expect(w.invalidRequests).toEqual([]);
    expect(w.comments.at(-1)!.body.split("\n")[0]).toBe(`✅ Done: ${pr.html_url} is ready for review.`);
    expect(w.comments.every((c) => /<!-- patchgate:[^:]+:[\w-]+ -->$/.test(c.body))).toBe(true);
    expect(h.openai.remaining()).toBe(0);
    expect(h.app.errors).toEqual([]);
  });
});

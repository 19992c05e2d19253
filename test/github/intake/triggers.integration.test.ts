import { GitHubWorld } from "../../fakes/github/github-state.js";
import { Payloads } from "../../fakes/github/payloads.js";
import { toDelivery } from "../../../src/github/inbound/triggers.js";

/** Real example payloads (@octokit/webhooks-examples) with the fields Patchgate reads filled in. */
const world = new GitHubWorld("octo-org", "calc", "http://github.invalid", { id: 1, slug: "patchgate", botId: 2 });
const p = new Payloads(world, 77);
const repo = { id: 4711, owner: "octo-org", repo: "calc", defaultBranch: "main", installationId: 77 };

describe("toDelivery", () => {
  test("an `/agent fix this` comment on an issue is a start command", () => {
    const payload = p.comment({ number: 3, title: "Bug", issueBody: "It breaks", body: "/agent fix this", by: "alice" });
    const d = toDelivery("d1", "issue_comment.created", payload);
    expect(d).toEqual({
      id: "d1",
      event: "issue_comment.created",
      repo,
      sender: { login: "alice", id: world.user("alice").id, type: "User" },
      intent: {
        kind: "command",
        command: { kind: "start", task: null },
        thread: { number: 3, isPullRequest: false, title: "Bug", body: "It breaks" },
        commentId: payload.comment.id,
        at: payload.comment.created_at,
      },
      source: `comment:${payload.comment.id}`,
    });
  });

  test("a comment without a command is a reply, which the job takes as an answer only where a question waits; an empty one is nothing", () => {
    const payload = p.comment({ number: 3, body: "+1", by: "alice" });
    expect(toDelivery("d", "issue_comment.created", payload)).toMatchObject({
      intent: { kind: "reply", body: "+1", commentId: payload.comment.id },
      source: `comment:${payload.comment.id}`,
    });
    expect(toDelivery("d", "issue_comment.created", p.comment({ number: 3, body: "  \n", by: "alice" }))).toBeNull();
  });

  test("a line comment stands for its review: the same source as the review, so one delivery acts for all", () => {
    world.pulls.push({
      number: 8,
      node_id: "PR_8",
      title: "T",
      body: "",
      draft: false,
      state: "open",
      head: { ref: "patchgate/issue-7", label: "octo-org:patchgate/issue-7" },
      base: { ref: "main" },
      html_url: "",
    });
    const review = p.review({ pr: 8, state: "commented", body: "", by: "alice", comments: [{ path: "a.js", line: 1, hunk: "@@ -1 +1 @@", body: "null?" }] });
    const [comment] = p.reviewCommentsCreated(review.review.id);
    expect(toDelivery("d", "pull_request_review.submitted", review)).toMatchObject({
      intent: { kind: "review", state: "commented" },
      source: `review:${review.review.id}`,
    });
    expect(toDelivery("d", "pull_request_review_comment.created", comment)).toMatchObject({
      intent: { kind: "line_comment", reviewId: review.review.id, body: "null?" },
      source: `review:${review.review.id}`,
    });
    expect(
      toDelivery(
        "d",
        "pull_request_review_comment.created",
        p.reviewCommentsCreated(
          p.review({ pr: 8, state: "commented", body: "", by: "ci[bot]", comments: [{ path: "a.js", line: 1, hunk: "", body: "x" }] }).review.id,
        )[0],
      ),
    ).toBeNull();
  });

  test("a bot's comment is never obeyed", () => {
    expect(toDelivery("d", "issue_comment.created", p.comment({ number: 3, body: "/agent approve", by: "dependabot[bot]" }))).toBeNull();
  });

  test("a comment carrying Patchgate's marker is never a command, whoever posted it", () => {
    const body = "/agent approve\n\n<!-- patchgate:abc:plan -->";
    expect(toDelivery("d", "issue_comment.created", p.comment({ number: 3, body, by: "alice" }))).toBeNull();
  });

  test("an issue opened with an `/agent` line starts; other commands in a body do not, the opening is only an automation's event", () => {
    const start = toDelivery("d", "issues.opened", p.issueOpened({ number: 4, title: "T", body: "Details\n/agent fix this", by: "alice" }));
    expect(start?.intent).toMatchObject({ kind: "issue_opened", command: { kind: "start", task: null } });
    const other = toDelivery("d", "issues.opened", p.issueOpened({ number: 5, title: "T", body: "/agent approve", by: "alice" }));
    expect(other?.intent).toMatchObject({ kind: "issue_event", event: "issue_opened", label: null });
    expect(toDelivery("d", "issues.opened", p.issueOpened({ number: 15, title: "T", body: "", by: "renovate[bot]" }))).toBeNull();
  });

  test("the `agent` label on an issue starts; another label is only an automation's event", () => {
    expect(toDelivery("d", "issues.labeled", p.issueLabeled({ number: 6, title: "T", body: "", label: "agent", by: "alice" }))?.intent).toMatchObject({
      kind: "label",
      label: "agent",
    });
    expect(toDelivery("d", "issues.labeled", p.issueLabeled({ number: 6, title: "T", body: "", label: "bug", by: "alice" }))).toMatchObject({
      intent: { kind: "issue_event", event: "issue_labeled", label: "bug" },
      source: "label:6:bug",
    });
  });

  test("CI that failed on a pull request is a ci_failed event whoever sent it; a success, or a run on no pull request, is nothing", () => {
    world.workflowRuns.push({ id: 900, checkSuiteId: 901, headSha: "a".repeat(40), conclusion: "failure", jobs: [] });
    const failed = toDelivery("d", "workflow_run.completed", p.ciCompleted({ via: "workflow_run", runId: 900, pr: 8, by: "patchgate[bot]" }));
    expect(failed).toMatchObject({
      intent: { kind: "ci_failed", via: "workflow_run", id: 900, headSha: "a".repeat(40), thread: { number: 8, isPullRequest: true } },
      source: `ci:8:${"a".repeat(40)}`,
    });
    // The run and its check suite are one failure of one head: the same source, so one of them acts.
    expect(toDelivery("d", "check_suite.completed", p.ciCompleted({ via: "check_suite", runId: 900, pr: 8, by: "alice" }))?.source).toBe(failed?.source);
    world.workflowRuns.push({ id: 910, checkSuiteId: 911, headSha: "b".repeat(40), conclusion: "success", jobs: [] });
    expect(toDelivery("d", "workflow_run.completed", p.ciCompleted({ via: "workflow_run", runId: 910, pr: 8, by: "alice" }))).toBeNull();
    const elsewhere = p.ciCompleted({ via: "workflow_run", runId: 900, pr: 8, by: "alice" });
    elsewhere.workflow_run.pull_requests = [];
    expect(toDelivery("d", "workflow_run.completed", elsewhere)).toBeNull();
  });

  test("a check-run button carries its identifier and check run", () => {
    const d = toDelivery("d", "check_run.requested_action", p.checkRunAction({ checkRunId: 99, identifier: "approve:0123456789ab", by: "alice" }));
    expect(d?.intent).toMatchObject({ kind: "button", identifier: "approve:0123456789ab", checkRunId: 99 });
  });

  test("a payload without an installation is not for an app", () => {
    const payload = p.comment({ number: 3, body: "/agent fix this", by: "alice" });
    delete payload.installation;
    expect(toDelivery("d", "issue_comment.created", payload)).toBeNull();
  });
});

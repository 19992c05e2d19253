import { parseCommand } from "./command.js";
import type { Delivery, Intent, Repo, Sender, Thread } from "./intent.js";
import { MARKER_PREFIX } from "../outbound/markers.js";
import { MalformedWebhookError } from "./malformed-webhook.js";

/**
 * Webhook payload → Delivery, or null when the event asks nothing of Patchgate. Pure apart from
 * reading the payload; authorization is not decided here (it needs the API) but in the job.
 */

export const HANDLED_EVENTS = [
  "issue_comment.created",
  "issues.opened",
  "issues.labeled",
  "pull_request_review.submitted",
  "pull_request_review_comment.created",
  "pull_request.labeled",
  "check_run.requested_action",
  "workflow_run.completed",
  "check_suite.completed",
] as const;

const APPROVAL_LABELS = ["agent:plan-approved", "agent:writes-approved", "agent:grant-approved"] as const;

function repoOf(p: any): Repo | null {
  if (!p.repository || !p.installation?.id) return null;
  return {
    id: p.repository.id,
    owner: p.repository.owner.login,
    repo: p.repository.name,
    defaultBranch: p.repository.default_branch,
    installationId: p.installation.id,
  };
}

function senderOf(p: any): Sender {
  return { login: p.sender.login, id: p.sender.id, type: p.sender.type };
}

/** Bots are never obeyed — Patchgate's own comments above all (they would otherwise loop). */
function isBot(s: Sender): boolean {
  return s.type === "Bot" || s.login.endsWith("[bot]");
}

function thread(issueOrPr: any, isPullRequest: boolean): Thread {
  return { number: issueOrPr.number, isPullRequest, title: issueOrPr.title ?? "", body: issueOrPr.body ?? "" };
}

// Payloads are read field by field below; `any` keeps that readable across six event shapes.
function intentOf(name: string, p: any): Intent | null {
  switch (name) {
    case "issue_comment.created": {
      const body: string = p.comment.body ?? "";
      if (body.includes(MARKER_PREFIX)) return null;
      const command = parseCommand(body);
      if (!command)
        return body.trim() === ""
          ? null
          : { kind: "reply", body, thread: thread(p.issue, Boolean(p.issue.pull_request)), commentId: p.comment.id, at: p.comment.created_at };
      return { kind: "command", command, thread: thread(p.issue, Boolean(p.issue.pull_request)), commentId: p.comment.id, at: p.comment.created_at };
    }
    case "issues.opened": {
      const command = parseCommand(p.issue.body ?? "");
      // Only a start counts in an issue body: a body cannot approve or stop anything. Without one,
      // the opening may still be what an automation waits for.
      if (command?.kind !== "start") return { kind: "issue_event", event: "issue_opened", label: null, thread: thread(p.issue, false), at: p.issue.created_at };
      return { kind: "issue_opened", command, thread: thread(p.issue, false), at: p.issue.created_at };
    }
    case "issues.labeled":
      if (p.issue.pull_request || typeof p.label?.name !== "string") return null;
      if (p.label.name !== "agent")
        return { kind: "issue_event", event: "issue_labeled", label: p.label.name, thread: thread(p.issue, false), at: p.issue.updated_at };
      return { kind: "label", label: "agent", thread: thread(p.issue, false), headSha: null, at: p.issue.updated_at };
    case "pull_request_review.submitted": {
      const state = String(p.review.state).toLowerCase();
      if (state !== "approved" && state !== "changes_requested" && state !== "commented") return null;
      return {
        kind: "review",
        state,
        body: p.review.body ?? "",
        commitId: p.review.commit_id,
        reviewId: p.review.id,
        thread: thread(p.pull_request, true),
        at: p.review.submitted_at,
      };
    }
    case "pull_request_review_comment.created": {
      const c = p.comment;
      if (typeof c.pull_request_review_id !== "number" || String(c.body ?? "").includes(MARKER_PREFIX)) return null;
      return {
        kind: "line_comment",
        reviewId: c.pull_request_review_id,
        commentId: c.id,
        body: c.body ?? "",
        thread: thread(p.pull_request, true),
        at: c.created_at,
      };
    }
    case "pull_request.labeled":
      if (!APPROVAL_LABELS.includes(p.label?.name)) return null;
      return { kind: "label", label: p.label.name, thread: thread(p.pull_request, true), headSha: p.pull_request.head.sha, at: p.pull_request.updated_at };
    case "check_run.requested_action":
      return { kind: "button", identifier: p.requested_action.identifier, checkRunId: p.check_run.id, at: p.check_run.completed_at ?? p.check_run.started_at };
    default:
      return null;
  }
}

/**
 * `name` is `event.action`, e.g. `issue_comment.created`. Throws MalformedWebhookError when a field
 * that every payload of the event carries is missing (reading it raised a TypeError).
 */
export function toDelivery(id: string, name: string, payload: unknown): Delivery | null {
  try {
    return parseDelivery(id, name, payload as any);
  } catch (e) {
    if (e instanceof TypeError) throw new MalformedWebhookError(id, name, e.message);
    throw e;
  }
}

function parseDelivery(id: string, name: string, p: any): Delivery | null {
  if (p === null || typeof p !== "object") throw new TypeError("the payload is not an object");
  const repo = repoOf(p);
  if (!repo || !p.sender) return null;
  const sender = senderOf(p);
  // CI is run by bots and for bots (Patchgate's own pushes): what a failure may start is judged on
  // GitHub's record of the run and of the branch's commits, never on who the sender is.
  const ci = ciFailureOf(name, p);
  if (ci) return { id, event: name, repo, sender, intent: ci, source: `ci:${ci.thread.number}:${ci.headSha}` };
  if (isBot(sender)) return null;
  const intent = intentOf(name, p);
  return intent ? { id, event: name, repo, sender, intent, source: sourceOf(intent, p) } : null;
}

/** A completed run or suite that failed on the head of one of the repository's own pull requests. */
function ciFailureOf(name: string, p: any): Extract<Intent, { kind: "ci_failed" }> | null {
  const via = name === "workflow_run.completed" ? "workflow_run" : name === "check_suite.completed" ? "check_suite" : null;
  if (via === null) return null;
  const run = p[via];
  const pull = (run.pull_requests ?? [])[0];
  if (run.conclusion !== "failure" || typeof pull?.number !== "number") return null;
  const thread = { number: pull.number, isPullRequest: true, title: "", body: "" };
  return { kind: "ci_failed", via, id: run.id, headSha: run.head_sha, thread, at: run.updated_at ?? run.created_at };
}

function sourceOf(i: Intent, p: any): string {
  switch (i.kind) {
    case "command":
    case "reply":
      return `comment:${i.commentId}`;
    case "issue_opened":
      return `issue:${p.issue.id}`;
    case "ci_failed":
      return `ci:${i.thread.number}:${i.headSha}`;
    case "issue_event":
      return i.event === "issue_opened" ? `issue:${p.issue.id}` : `label:${i.thread.number}:${i.label}`;
    case "review":
    case "line_comment":
      // One review, however many deliveries tell of it: the first to arrive acts for all.
      return `review:${i.reviewId}`;
    case "label":
      return `label:${i.thread.number}:${i.label}`;
    case "button":
      // A press is no object GitHub keeps: each person's press of a button is its own act, so a
      // press refused for its presser does not use the button up for a maintainer.
      return `check_run:${i.checkRunId}:${i.identifier}:${p.sender.id}`;
  }
}

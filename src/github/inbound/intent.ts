import type { AgentCommand } from "./command.js";

/**
 * What a webhook asks of Patchgate, as plain data (a discriminated union with no Probot in it), so the
 * decision logic is testable without a server. Built by `./triggers.ts`, acted on by `./jobs.ts`.
 */
export interface Repo {
  /** GitHub's repository id: the same after a rename or a transfer. */
  id: number;
  owner: string;
  repo: string;
  defaultBranch: string;
  installationId: number;
}

export interface Sender {
  login: string;
  id: number;
  type: string;
}

/** Where the words came from: an issue or a pull request (PRs are issues for comments). */
export interface Thread {
  number: number;
  isPullRequest: boolean;
  title: string;
  body: string;
}

export type Intent =
  | { kind: "command"; command: AgentCommand; thread: Thread; commentId: number; at: string }
  | { kind: "issue_opened"; command: AgentCommand; thread: Thread; at: string }
  /** A comment without an `/agent` line: it matters only as the answer to a waiting question (ask_human). */
  | { kind: "reply"; body: string; thread: Thread; commentId: number; at: string }
  | { kind: "review"; state: "approved" | "changes_requested" | "commented"; body: string; commitId: string; reviewId: number; thread: Thread; at: string }
  /**
   * One line comment of a review (`pull_request_review_comment.created`). It stands for its whole review:
   * verification reads the review back and the job acts on it, once for the review and all its comments.
   */
  | { kind: "line_comment"; reviewId: number; commentId: number; body: string; thread: Thread; at: string }
  | { kind: "label"; label: ApprovalLabel | "agent"; thread: Thread; headSha: string | null; at: string }
  | { kind: "button"; identifier: string; checkRunId: number; at: string }
  /**
   * An issue opened, or a label added to one, without `/agent`: it starts a session only when an
   * automation of the default branch's `.github/patchgate.yml` names it (session-work/automation-start.ts).
   */
  | { kind: "issue_event"; event: "issue_opened" | "issue_labeled"; label: string | null; thread: Thread; at: string }
  /**
   * CI failed on a pull request's head: a workflow run (`id` is the run's) or a check suite (the
   * suite's). A `ci_failed` automation may follow up on it (session-work/ci-followup.ts).
   */
  | { kind: "ci_failed"; via: "workflow_run" | "check_suite"; id: number; headSha: string; thread: Thread; at: string };

type ApprovalLabel = "agent:plan-approved" | "agent:writes-approved" | "agent:grant-approved";

export interface Delivery {
  id: string;
  event: string;
  repo: Repo;
  sender: Sender;
  intent: Intent;
  /**
   * The GitHub object this delivery is about — `comment:<id>`, `review:<id>`, `issue:<id>`,
   * `label:<issue>:<name>` (the labeled event, once re-read, names it exactly), `check_run:<id>:<action>:<presser's id>`
   * — which a command is deduplicated on, and which the ledger records with the decision.
   */
  source: string;
}

/**
 * The issue key `inst:<installation id>/repo:<repository id>#n`: a session's store key, and the queue
 * key for all its work. By ids, not name, so a rename leaves every session where it was; with the
 * installation, so a repository transferred to another installation finds none of the old one's.
 */
export function issueKey(r: Pick<Repo, "id" | "installationId">, n: number): string {
  return `inst:${r.installationId}/repo:${r.id}#${n}`;
}

/**
 * The keys older stores gave a session of this issue — by repository id alone (`repo:<id>#n`), and
 * before that by name (`owner/repo#n`) — still found, but handed over only after the session's own
 * record names this installation and repository (session-work/session-index.ts).
 */
export function olderIssueKeys(r: Pick<Repo, "id" | "owner" | "repo">, n: number): string[] {
  return [`repo:${r.id}#${n}`, `${r.owner}/${r.repo}#${n}`];
}

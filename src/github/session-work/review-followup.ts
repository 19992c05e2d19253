import type { ReviewComment } from "../../session/types.js";
import type { Ledger } from "../../store/ledger.js";
import { sanitizeName, sanitizeUntrusted } from "../../safety/sanitize.js";
import type { JobContext } from "../deps.js";
import type { Intent } from "../inbound/intent.js";
import type { Octokit } from "../octokit.js";
import { startSession } from "./start.js";

/**
 * A review on the PR of a finished session, with line comments, becomes one follow-up session on the
 * same branch: every line comment of the review (the reviewer's own, as GitHub lists them now) with
 * its path, line range and diff hunk, sanitised like any text from GitHub. A review without line
 * comments starts nothing here (its body alone is not a task; `/agent <instruction>` is).
 */
type Review = Extract<Intent, { kind: "review" }>;

/** Enough for any real review; beyond it the reviewer is asked to split the work. */
const MAX_REVIEW_COMMENTS = 30;
const MAX_COMMENT_CHARS = 4000;
const MAX_HUNK_CHARS = 3000;

interface ApiReviewComment {
  id: number;
  path: string;
  line?: number | null;
  start_line?: number | null;
  side?: string | null;
  diff_hunk: string;
  body: string;
  user: { login: string } | null;
}

async function listReviewComments(octokit: Octokit, jc: JobContext, review: Review): Promise<ApiReviewComment[]> {
  const { repo } = jc.delivery;
  const all: ApiReviewComment[] = [];
  for (let page = 1; page <= 10; page++) {
    const { data } = await octokit.rest.pulls.listCommentsForReview({
      owner: repo.owner,
      repo: repo.repo,
      pull_number: review.thread.number,
      review_id: review.reviewId,
      per_page: 100,
      page,
    });
    all.push(...(data as unknown as ApiReviewComment[]));
    if (data.length < 100) break;
  }
  return all;
}

function toReviewComment(c: ApiReviewComment, pull: number): ReviewComment {
  return {
    id: c.id,
    pull,
    path: sanitizeName(c.path),
    line: typeof c.line === "number" ? c.line : null,
    startLine: typeof c.start_line === "number" ? c.start_line : null,
    side: c.side === "LEFT" ? "LEFT" : "RIGHT",
    hunk: sanitizeUntrusted(c.diff_hunk ?? "", { markdown: false, maxChars: MAX_HUNK_CHARS }),
    body: sanitizeUntrusted(c.body ?? "", { maxChars: MAX_COMMENT_CHARS }),
    by: c.user?.login ?? "",
  };
}

export async function reviewFollowUp(jc: JobContext, ledger: Ledger, review: Review, issue: number): Promise<void> {
  const reviewer = jc.delivery.sender.login;
  // Only the reviewer's own words count: GitHub lists a review's comments, all of them by its author.
  const listed = (await listReviewComments(jc.octokit, jc, review)).filter((c) => c.user?.login === reviewer && (c.body ?? "").trim() !== "");
  if (listed.length === 0) return jc.deps.log(`review ${review.reviewId} has no line comments; nothing to follow up`);
  const comments = listed.slice(0, MAX_REVIEW_COMMENTS).map((c) => toReviewComment(c, review.thread.number));
  jc.deps.log(`review ${review.reviewId} by @${reviewer}: ${comments.length} line comment(s) → one follow-up of session ${ledger.sessionId}`);
  await startSession(jc, ledger, {
    issue,
    title: `Follow-up on #${review.thread.number}: review by @${reviewer}`,
    body: "",
    instruction: review.body.trim() || null,
    followUp: true,
    reviewComments: comments,
  });
}

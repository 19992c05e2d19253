import { isDeepStrictEqual } from "node:util";
import { parseCommand } from "./command.js";
import type { Delivery, Sender } from "./intent.js";
import type { Octokit } from "../octokit.js";

/**
 * Act on GitHub's state, not on the payload. A delivery's id is not signed and its body can be
 * captured and sent again (a webhook proxy, a leaked secret), so before a command changes anything
 * the object it came from is read back through the API: the comment by id (it exists, says the same,
 * was not edited, by the same person), the issue, the review by id (same state, commit and body), the
 * label's `labeled` event in the issue's events (the label still on), the check run.
 * What comes back — the author as GitHub knows them, the object's exact identity and time — replaces
 * what the payload claimed.
 */
export type Verdict =
  { ok: true; delivery: Delivery } | { ok: false; why: string; /** Worth telling the human (an edited approval); otherwise only logged. */ tell?: string };

const who = (u: { login: string; id: number; type?: string } | null | undefined): Sender | null =>
  u ? { login: u.login, id: u.id, type: u.type ?? "User" } : null;
const gone = (e: unknown): boolean => [404, 410].includes((e as { status?: number }).status ?? 0);

export async function verifyDelivery(octokit: Octokit, d: Delivery): Promise<Verdict> {
  try {
    return await verify(octokit, d);
  } catch (e) {
    if (gone(e)) return { ok: false, why: `${d.source} no longer exists on GitHub` };
    throw e;
  }
}

async function verify(octokit: Octokit, d: Delivery): Promise<Verdict> {
  const base = { owner: d.repo.owner, repo: d.repo.repo };
  const i = d.intent;
  const same = (sender: Sender | null, next: Partial<Delivery> = {}): Verdict =>
    sender && sender.login === d.sender.login
      ? { ok: true, delivery: { ...d, sender, ...next } }
      : { ok: false, why: `${d.source} is not by @${d.sender.login}` };
  switch (i.kind) {
    case "command": {
      const { data: c } = await octokit.rest.issues.getComment({ ...base, comment_id: i.commentId });
      if (!isDeepStrictEqual(parseCommand(c.body ?? ""), i.command)) return { ok: false, why: `${d.source} does not say that on GitHub`, tell: "edited" };
      if (c.updated_at !== c.created_at) return { ok: false, why: `${d.source} was edited`, tell: "edited" };
      return same(who(c.user), { intent: { ...i, at: c.created_at } });
    }
    case "reply": {
      const { data: c } = await octokit.rest.issues.getComment({ ...base, comment_id: i.commentId });
      if ((c.body ?? "") !== i.body) return { ok: false, why: `${d.source} does not say that on GitHub` };
      if (c.updated_at !== c.created_at) return { ok: false, why: `${d.source} was edited`, tell: "edited" };
      return same(who(c.user), { intent: { ...i, at: c.created_at } });
    }
    case "issue_opened": {
      const { data: issue } = await octokit.rest.issues.get({ ...base, issue_number: i.thread.number });
      if (!isDeepStrictEqual(parseCommand(issue.body ?? ""), i.command)) return { ok: false, why: `${d.source} does not say that on GitHub` };
      return same(who(issue.user));
    }
    case "review": {
      const { data: r } = await octokit.rest.pulls.getReview({ ...base, pull_number: i.thread.number, review_id: i.reviewId });
      if (r.state.toLowerCase() !== i.state || r.commit_id !== i.commitId || (r.body ?? "") !== i.body)
        return { ok: false, why: `${d.source} is not that review on GitHub (now ${r.state})` };
      return same(who(r.user));
    }
    case "line_comment": {
      // The comment is real and the sender's; then it is its review that acts (read back as a review is).
      const { data: c } = await octokit.rest.pulls.getReviewComment({ ...base, comment_id: i.commentId });
      if (c.pull_request_review_id !== i.reviewId) return { ok: false, why: `${d.source}'s comment ${i.commentId} is not part of it on GitHub` };
      if (who(c.user)?.login !== d.sender.login) return { ok: false, why: `comment ${i.commentId} is not by @${d.sender.login}` };
      const { data: r } = await octokit.rest.pulls.getReview({ ...base, pull_number: i.thread.number, review_id: i.reviewId });
      const state = r.state.toLowerCase() as "approved" | "changes_requested" | "commented";
      if (!["approved", "changes_requested", "commented"].includes(state)) return { ok: false, why: `${d.source} is ${r.state} on GitHub` };
      const review = {
        kind: "review" as const,
        state,
        body: r.body ?? "",
        commitId: r.commit_id ?? "",
        reviewId: r.id,
        thread: i.thread,
        at: r.submitted_at ?? i.at,
      };
      return same(who(r.user), { intent: review });
    }
    case "ci_failed":
      // Read back by session-work/ci-followup.ts, which needs the run's jobs anyway.
      return { ok: true, delivery: d };
    case "issue_event": {
      if (i.event === "issue_opened") {
        const { data: issue } = await octokit.rest.issues.get({ ...base, issue_number: i.thread.number });
        return same(who(issue.user));
      }
      const found = await labelStillOn(octokit, base, i.thread.number, i.label ?? "", d.sender.login);
      if (typeof found === "string") return { ok: false, why: found };
      return same(who(found.actor), { source: `label-event:${found.id}`, intent: { ...i, at: found.created_at } });
    }
    case "label": {
      const found = await labelStillOn(octokit, base, i.thread.number, i.label, d.sender.login);
      if (typeof found === "string") return { ok: false, why: found };
      return same(who(found.actor), { source: `label-event:${found.id}`, intent: { ...i, at: found.created_at } });
    }
    case "button": {
      // The button names the plan it approves (./binding.ts), which the ledger checks; here only that
      // the run is real and Patchgate's.
      const { data: run } = await octokit.rest.checks.get({ ...base, check_run_id: i.checkRunId });
      if (run.name !== "Patchgate") return { ok: false, why: `check run ${i.checkRunId} is not Patchgate's` };
      return { ok: true, delivery: d };
    }
  }
}

interface LabeledEvent {
  id: number;
  created_at: string;
  actor: { login: string; id: number; type?: string } | null;
}

/** The newest `labeled` event for `label` by `login`, while the label is still on the issue; otherwise why not. */
async function labelStillOn(
  octokit: Octokit,
  base: { owner: string; repo: string },
  issue: number,
  label: string,
  login: string,
): Promise<LabeledEvent | string> {
  const event = await lastLabeled(octokit, base, issue, label, login);
  if (!event) return `no \`${label}\` labeled event by @${login} on #${issue}`;
  const { data: labels } = await octokit.rest.issues.listLabelsOnIssue({ ...base, issue_number: issue, per_page: 100 });
  if (!labels.some((l) => l.name === label)) return `\`${label}\` is no longer on #${issue}`;
  return event;
}

/** The newest `labeled` event for `label` by `login` (bounded: 10 pages of 100 events). */
async function lastLabeled(octokit: Octokit, base: { owner: string; repo: string }, issue: number, label: string, login: string): Promise<LabeledEvent | null> {
  let found: LabeledEvent | null = null;
  for (let page = 1; page <= 10; page++) {
    const { data } = await octokit.rest.issues.listEvents({ ...base, issue_number: issue, per_page: 100, page });
    for (const e of data as unknown as (LabeledEvent & { event: string; label?: { name: string } })[]) {
      if (e.event === "labeled" && e.label?.name === label && e.actor?.login === login) found = e;
    }
    if (data.length < 100) break;
  }
  return found;
}

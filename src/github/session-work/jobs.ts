import { Ledger } from "../../store/ledger.js";
import { continuesFromBranch } from "./blocked-work.js";
import { leaseWasLost } from "../../store/fence.js";
import { claimEffect, readEffect } from "../../store/effect-codec.js";
import { effect } from "../../store/effects.js";
import type { Job } from "../../queue/types.js";
import { HELP_TEXT } from "../inbound/command.js";
import { abortInFlight, requestStop, retry, status } from "./control.js";
import { answerWith, approveAllWrites, approveByComment, approvePlanAs, approvePlanByButton, approver, denyByComment, revise } from "./decisions.js";
import { withToken, type Intake } from "../deps.js";
import { freshGitToken } from "../outbound/git-remote.js";
import { issueKey, type Delivery, type Intent } from "../inbound/intent.js";
import { checkPermission, refusalText } from "../inbound/permission.js";
import { answer } from "../outbound/replies.js";
import { startSession } from "./start.js";
import { currentAt } from "./binding.js";
import { verifyDelivery } from "../inbound/verify.js";
import { reviewFollowUp } from "./review-followup.js";

/**
 * A delivery becomes queued work. Everything for one issue (its PR and check run included) runs in
 * the issue's lane, one job after another; `stop` and `status` run in a control lane so they are
 * not stuck behind the work they are about.
 */
export function jobsFor(jc: Intake, issue: number): Job {
  return { ...jobLane(jc.delivery, issue), run: () => runReporting(jc, issue) };
}

/** The lane and name of a delivery's job, known from the delivery alone (before its clients are built). */
export function jobLane(d: Delivery, issue: number): Pick<Job, "key" | "name"> {
  const i = d.intent;
  const lane = issueKey(d.repo, issue);
  const control = i.kind === "command" && (i.command.kind === "stop" || i.command.kind === "status");
  return { key: control ? `control:${lane}` : lane, name: `${d.event} ${d.id}` };
}

/** A job that fails (GitHub down, push rejected…) says so where it was asked, then fails for the log. */
async function runReporting(jc: Intake, issue: number): Promise<void> {
  try {
    await runDelivery(jc, issue);
  } catch (e) {
    if (leaseWasLost(e)) throw e; // another worker holds the issue now and answers for it
    const reply = jc.delivery.intent.kind === "button" ? issue : jc.delivery.intent.thread.number;
    const why = e instanceof Error ? e.message : String(e);
    await answer(
      jc,
      reply,
      null,
      "error",
      `Patchgate hit an error and stopped here: ${why.split("\n")[0]}\n\n\`/agent retry\` continues from the last checkpoint.`,
    ).catch(() => {});
    throw e;
  }
}

/**
 * This delivery ran before and its decision is in the ledger (the process died before the delivery
 * was done): nothing to do. Asked before GitHub is read, and again once the source is exact.
 */
async function alreadyApplied(jc: Intake, issue: number): Promise<boolean> {
  const id = await jc.index.sessionOfIssue(jc.delivery.repo, issue);
  const ledger = id ? await Ledger.open(jc.deps.store, id) : null;
  if (!ledger || !appliedIn(ledger, jc.delivery.source)) return false;
  jc.deps.log(`${jc.delivery.source} is already applied to session ${ledger.sessionId}; nothing to do`);
  return true;
}

/** Whether the ledger already holds a decision (or the start) that came from GitHub object `source`. */
function appliedIn(ledger: Ledger, source: string): boolean {
  return ledger.history.some((e) => {
    if (e.type === "session_created") return e.task.source.trigger === source;
    if (e.type === "session_cancelled") return e.source === source;
    const by = (e as { by?: unknown }).by;
    return typeof by === "object" && by !== null && (by as { source?: string }).source === source;
  });
}

function what(i: Intent): string {
  return i.kind === "review" ? "reviews" : i.kind === "label" ? "labels" : i.kind === "button" ? "approvals" : i.kind === "reply" ? "answers" : "commands";
}

/**
 * Words that are not addressed to Patchgate matter only in one state of the session, and are
 * otherwise conversation: nothing is read from GitHub for them, nobody is refused, nothing is claimed.
 * A comment without `/agent` is an answer only while a question waits in its thread; a review that
 * only comments, or one of its line comments, starts a follow-up only on a finished session's PR.
 */
async function addressesSession(jc: Intake, issue: number): Promise<boolean> {
  const i = jc.delivery.intent;
  const conversational = i.kind === "reply" || i.kind === "line_comment" || (i.kind === "review" && i.state === "commented");
  if (!conversational) return true;
  const id = await jc.index.sessionOfIssue(jc.delivery.repo, issue);
  const s = id ? (await Ledger.open(jc.deps.store, id)).state : null;
  if (i.kind === "reply") return s?.phase === "awaiting_answer" && i.thread.number === s.task.source.issueNumber;
  return s?.phase === "done";
}

/**
 * Whether this delivery would act on a session whose stop is pending. Help and status only read.
 * The stop may have been taken by another worker: the durable queue's lane shows its cancellation.
 */
async function standsDown(jc: Intake, i: Intent, issue: number): Promise<boolean> {
  if (i.kind === "command" && (i.command.kind === "help" || i.command.kind === "status" || i.command.kind === "stop")) return false;
  const key = issueKey(jc.delivery.repo, issue);
  return jc.deps.aborts.stopping(key) || ((await jc.deps.queue.stopPending?.(key)) ?? false);
}

async function runDelivery(received: Intake, issue: number): Promise<void> {
  if (!(await addressesSession(received, issue))) return;
  if (await alreadyApplied(received, issue)) return;
  const checked = await verifyDelivery(received.octokit, received.delivery);
  if (!checked.ok) {
    received.deps.log(`${received.delivery.event} ${received.delivery.id} not acted on: ${checked.why}`);
    const reply = received.delivery.intent.kind === "button" ? issue : received.delivery.intent.thread.number;
    if (checked.tell === "edited")
      await answer(
        received,
        reply,
        null,
        "edited",
        "That comment was edited after it was written, so Patchgate did not act on it (an edit could change what was approved). Nothing was changed — write a new comment.",
      );
    return;
  }
  const intake: Intake = Object.freeze({ ...received, delivery: checked.delivery });
  const { intent: i, sender, repo, source } = intake.delivery;
  // One delivery per GitHub object ever acts.
  const claimedBy = await claimEffect(intake.deps.store, effect.claim(repo.id, source), intake.delivery.id);
  if (claimedBy !== intake.delivery.id) {
    // The same comment, review or label event under a new delivery id: a replay, or GitHub's own resend.
    intake.deps.log(`${source} was already acted on (delivery ${claimedBy}); ${intake.delivery.id} ignored`);
    return;
  }
  if (await alreadyApplied(intake, issue)) return;
  const known = await intake.index.sessionOfIssue(repo, issue);
  const prior = known ? await Ledger.open(intake.deps.store, known) : null;
  const verdict = await checkPermission(intake.octokit, repo, sender);
  const reply = i.kind === "button" ? issue : i.thread.number;
  if (!verdict.allowed) {
    intake.deps.log(`refused @${sender.login} (${verdict.role})`);
    await answer(intake, reply, null, "refused", refusalText(sender.login, verdict.role, what(i)));
    return;
  }
  // A fresh git token per job (only for work past the permission check), redacted from all output.
  const jc = withToken(intake, await freshGitToken(await intake.appOctokit(), repo));
  const sessionId = known;
  const ledger = prior;
  const w = { reply };
  if (ledger && (await standsDown(jc, i, issue))) {
    // Queued before a stop that is not yet applied: acting now would run on what the stop cancels.
    if (i.kind === "command" || i.kind === "button")
      await answer(
        jc,
        reply,
        ledger.sessionId,
        "stopping",
        "Not applied: `/agent stop` is cancelling this session. Once it is cancelled, `/agent retry` starts again.",
      );
    return;
  }
  if (i.kind === "issue_opened" || (i.kind === "label" && i.label === "agent")) {
    const instruction = i.kind === "issue_opened" && i.command.kind === "start" ? i.command.task : null;
    return startSession(jc, { issue, title: i.thread.title, body: i.thread.body, instruction, followUp: false });
  }
  if (i.kind === "command") {
    const c = i.command;
    if (c.kind === "help")
      return answer(jc, reply, sessionId, "help", `${c.why === "help requested" ? "" : `I did not understand that (${c.why}).\n\n`}${HELP_TEXT}`);
    if (c.kind === "status") return status(jc, ledger, reply);
    if (c.kind === "stop") {
      if (ledger) return requestStop(jc, issue, ledger);
      abortInFlight(jc, issue);
      return status(jc, null, reply);
    }
    if (c.kind === "retry") return retry(jc, ledger, reply);
    if (c.kind === "start") {
      if (ledger?.state.phase === "awaiting_answer" && c.task) return answerWith(jc, ledger, c.task, i.at);
      if (!i.thread.isPullRequest || !ledger)
        return startSession(jc, { issue, title: i.thread.title, body: i.thread.body, instruction: c.task, followUp: false });
      if (ledger.state.phase === "done")
        return startSession(jc, { issue, title: `Follow-up on #${i.thread.number}`, body: "", instruction: c.task, followUp: true });
      // On the PR of a session that did not finish, the task is still the issue's (as for a retry):
      // the PR's title and body are Patchgate's own text, the old plan and how to approve it. Work
      // a blocked session pushed is continued, not replaced.
      return startSession(jc, {
        issue,
        title: ledger.state.task.title,
        body: ledger.state.task.body,
        instruction: c.task,
        followUp: continuesFromBranch(ledger.state),
      });
    }
    if (!ledger) return status(jc, null, reply);
    if (c.kind === "approve") return approveByComment(jc, ledger, c.ref, { at: i.at, commentId: i.commentId }, w, c.executableConfig === true);
    if (c.kind === "deny") return denyByComment(jc, ledger, c.reason, { at: i.at, commentId: i.commentId }, w);
    return revise(jc, ledger, approver(jc, "comment"), c.feedback, w);
  }
  if (!ledger) return;
  if (i.kind === "reply") return answerWith(jc, ledger, i.body, i.at);
  if (i.kind === "button") return approvePlanByButton(jc, ledger, i.identifier, w);
  if (i.kind === "review") {
    if (ledger.state.phase === "done" && i.state !== "approved") return reviewFollowUp(jc, ledger, i, issue);
    if (i.state === "commented") return;
    if (i.state === "changes_requested") {
      if (ledger.state.phase !== "awaiting_plan_approval" && ledger.state.phase !== "planning") return;
      if (i.body.trim() === "")
        return answer(
          jc,
          reply,
          ledger.sessionId,
          "revise",
          "To send the plan back, say what to change in the review's comment (or `/agent revise <feedback>`).",
        );
      return revise(jc, ledger, approver(jc, "review"), i.body, w);
    }
    if (ledger.state.phase !== "awaiting_plan_approval") return;
    const hash = await readEffect(jc.deps.store, effect.planOfCommit(ledger.sessionId, i.commitId));
    return approvePlanAs(jc, ledger, approver(jc, "review"), hash, w);
  }
  // A label approves only what existed when it was added: `i.at` is its labeled event's time. Its
  // event id is of another sequence than comments', so unlike a comment it is not ordered by id.
  if (i.kind === "label" && i.label === "agent:writes-approved") {
    if (Date.parse(i.at) < Date.parse(ledger.history[0].at)) return jc.deps.log(`label added before session ${ledger.sessionId} existed: ignored`);
    return approveAllWrites(jc, ledger, w);
  }
  if (i.kind === "label" && ledger.state.phase === "awaiting_plan_approval") {
    const hash = currentAt(ledger.history, i.at, (e) => (e.type === "plan_submitted" ? e.hash : null));
    return approvePlanAs(jc, ledger, approver(jc, "label"), hash, w);
  }
}

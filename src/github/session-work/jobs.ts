import { matchingAutomation } from "./automation-start.js";
import { Ledger } from "../../store/ledger.js";
import { leaseWasLost } from "../../store/fence.js";
import { claimEffect } from "../../store/effect-codec.js";
import { effect } from "../../store/effects.js";
import type { Job } from "../../queue/types.js";
import { apply } from "./apply.js";
import { actsOnSession, addressesSession, route } from "./route.js";
import { withToken, type Intake } from "../deps.js";
import { freshGitToken } from "../outbound/git-remote.js";
import { issueKey, type Delivery, type Intent } from "../inbound/intent.js";
import { checkPermission, refusalText } from "../inbound/permission.js";
import { answer } from "../outbound/replies.js";
import { verifyDelivery } from "../inbound/verify.js";

/**
 * A delivery becomes queued work. Everything for one issue (its PR and check run included) runs in
 * the issue's lane, one job after another; `stop` and `status` run in a control lane so they are
 * not stuck behind the work they are about.
 */
export function jobsFor(intake: Intake, issue: number): Job {
  return { ...jobLane(intake.delivery, issue), run: () => runReporting(intake, issue) };
}

/** The lane and name of a delivery's job, known from the delivery alone (before its clients are built). */
export function jobLane(d: Delivery, issue: number): Pick<Job, "key" | "name"> {
  const i = d.intent;
  const lane = issueKey(d.repo, issue);
  const control = i.kind === "command" && (i.command.kind === "stop" || i.command.kind === "status");
  return { key: control ? `control:${lane}` : lane, name: `${d.event} ${d.id}` };
}

/** A job that fails (GitHub down, push rejected…) says so where it was asked, then fails for the log. */
async function runReporting(intake: Intake, issue: number): Promise<void> {
  try {
    await runDelivery(intake, issue);
  } catch (e) {
    if (leaseWasLost(e)) throw e; // another worker holds the issue now and answers for it
    const reply = intake.delivery.intent.kind === "button" ? issue : intake.delivery.intent.thread.number;
    const why = e instanceof Error ? e.message : String(e);
    await answer(
      intake,
      reply,
      null,
      "error",
      `Patchgate hit an error and stopped here: ${why.split("\n")[0]}\n\n\`/agent retry\` continues from the last checkpoint.`,
    ).catch(() => {});
    throw e;
  }
}

/** The issue's session, folded once for the whole job: every step of it reads this one. */
async function issueSession(intake: Intake, issue: number): Promise<Ledger | null> {
  const id = await intake.index.sessionOfIssue(intake.delivery.repo, issue);
  return id ? Ledger.open(intake.deps.store, id) : null;
}

/**
 * This delivery ran before and its decision is in the ledger (the process died before the delivery
 * was done): nothing to do. Asked before GitHub is read, and again once the source is exact.
 */
function alreadyApplied(intake: Intake, session: Ledger | null): boolean {
  if (!session || !appliedIn(session, intake.delivery.source)) return false;
  intake.deps.log(`${intake.delivery.source} is already applied to session ${session.sessionId}; nothing to do`);
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

function what(i: Exclude<Intent, { kind: "issue_event" | "ci_failed" }>): string {
  return i.kind === "review" ? "reviews" : i.kind === "label" ? "labels" : i.kind === "button" ? "approvals" : i.kind === "reply" ? "answers" : "commands";
}

/** Whether a stop of this issue is pending. It may have been taken by another worker: the durable queue's lane shows its cancellation. */
async function stopPending(intake: Intake, issue: number): Promise<boolean> {
  const key = issueKey(intake.delivery.repo, issue);
  return intake.deps.aborts.stopping(key) || ((await intake.deps.queue.stopPending?.(key)) ?? false);
}

/**
 * verify → permission → route → apply. The issue's session is read once, before GitHub is: words
 * that are conversation in its phase cost nothing, and a replayed delivery is recognised early.
 */
async function runDelivery(received: Intake, issue: number): Promise<void> {
  const session = await issueSession(received, issue);
  if (!addressesSession(received.delivery.intent, session?.state ?? null)) return;
  if (alreadyApplied(received, session)) return;
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
  if (alreadyApplied(intake, session)) return;
  // An issue opened or labeled asks nothing of Patchgate: unless an automation names the event, it
  // costs no permission check and no git token (most issue events of an installation are these).
  if (i.kind === "issue_event") {
    const found = await matchingAutomation(intake.octokit, repo, i);
    if ("none" in found) return intake.deps.log(`#${i.thread.number} ${i.event}: ${found.none}`);
  }
  // No person asked: a CI failure acts for the session's requester, under what ./ci-followup.ts checks.
  if (i.kind === "ci_failed") {
    const jc = withToken(intake, await freshGitToken(await intake.appOctokit(), repo));
    return apply(jc, route(i, session?.state ?? null), { issue, reply: i.thread.number, session });
  }
  const verdict = await checkPermission(intake.octokit, repo, sender);
  const reply = i.kind === "button" ? issue : i.thread.number;
  if (!verdict.allowed) {
    intake.deps.log(`refused @${sender.login} (${verdict.role})`);
    // Opening or labeling an issue asked nothing of Patchgate: an automation that does not start says nothing.
    if (i.kind === "issue_event") return;
    await answer(intake, reply, null, "refused", refusalText(sender.login, verdict.role, what(i)));
    return;
  }
  // A fresh git token per job (only for work past the permission check), redacted from all output.
  const jc = withToken(intake, await freshGitToken(await intake.appOctokit(), repo));
  if (session && actsOnSession(i) && (await stopPending(jc, issue))) {
    // Queued before a stop that is not yet applied: acting now would run on what the stop cancels.
    if (i.kind === "command" || i.kind === "button")
      await answer(
        jc,
        reply,
        session.sessionId,
        "stopping",
        "Not applied: `/agent stop` is cancelling this session. Once it is cancelled, `/agent retry` starts again.",
      );
    return;
  }
  await apply(jc, route(i, session?.state ?? null), { issue, reply, session });
}

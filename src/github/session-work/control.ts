import { cancelSession } from "../../agent/approvals.js";
import { continuesFromBranch } from "./route.js";
import { prepareRetry } from "../../agent/retry-session.js";
import { runInLane } from "../../queue/in-lane.js";
import { TERMINAL_PHASES } from "../../session/types.js";
import { Ledger } from "../../store/ledger.js";
import type { JobContext, SessionWork } from "../deps.js";
import { checkRunFor, drive, finishEnded } from "./drive.js";
import { issueKey } from "../inbound/intent.js";
import { statusComment } from "../outbound/render.js";
import { answer, replyThread } from "../outbound/replies.js";
import { startSession } from "./start.js";
import { continueStart, startUnfinished } from "./start-workspace.js";

/**
 * `/agent stop`, `/agent status`, `/agent retry`. Stop has two halves: the abort runs at once (from
 * the control lane, past the job it interrupts), the cancellation runs in the session's lane after
 * the interrupted job has let go, so the two never write the ledger at the same time.
 */
export function abortInFlight(jc: JobContext, issue: number): number {
  const n = jc.deps.aborts.abort(issueKey(jc.delivery.repo, issue), `stopped by @${jc.delivery.sender.login}`);
  if (n > 0) jc.deps.log(`aborted ${n} in-flight job(s) for #${issue}`);
  return n;
}

/**
 * `/agent stop` from the control lane: aborts what runs now, marks the stop as pending (so work queued
 * before it stands down, see ./jobs.ts), and queues the cancellation in the session's lane, behind
 * the aborted job. The mark is lifted once the cancellation has run, whatever its result.
 */
export async function requestStop(jc: JobContext, issue: number, ledger: Ledger): Promise<void> {
  const key = issueKey(jc.delivery.repo, issue);
  // Under a durable queue the job may run in another worker: asked there, before the cancellation
  // is queued, so that the stop reaches the job it is about and not the cancellation.
  const local = abortInFlight(jc, issue) > 0;
  const remote = jc.deps.queue.interrupt ? await jc.deps.queue.interrupt(key, `stopped by @${jc.delivery.sender.login}`) : false;
  const interrupted = local || remote;
  jc.deps.aborts.stop(key);
  jc.deps.log(`stop requested for #${issue}`);
  const reply = replyThread(jc, issue);
  const spec = {
    kind: "stop-cancel",
    deliveryId: jc.delivery.id,
    sessionId: ledger.sessionId,
    reply,
    interrupted,
    by: jc.delivery.sender.login,
    source: jc.delivery.source,
  };
  // Resolves when the cancellation has run: the stop's delivery is done only then (./inbox.ts).
  try {
    await runInLane(jc.deps.queue, key, `cancel ${ledger.sessionId}`, () => cancel(jc, ledger.sessionId, reply, interrupted), spec);
  } finally {
    jc.deps.aborts.stopped(key);
  }
}

/** What the cancellation needs of the stop's job: who stopped it and from which GitHub object. */
export type Canceller = SessionWork & { readonly delivery: SessionWork["delivery"] & { sender: { login: string }; source?: string } };

/**
 * `interrupted`: the stop aborted running work, whose own ending may already have cancelled the
 * session. The ledger is read when this runs, after the work ahead of it in the lane.
 */
export async function cancel(work: Canceller, sessionId: string, reply: number, interrupted: boolean): Promise<void> {
  const ledger = await Ledger.open(work.deps.store, sessionId);
  const live = !TERMINAL_PHASES.includes(ledger.state.phase);
  if (live) {
    await cancelSession(ledger, work.delivery.sender.login, "stopped with /agent stop", work.delivery.source);
    work.deps.log(`session cancelled by @${work.delivery.sender.login}`);
  }
  // An interrupted job that still ended `done` (publishing is not cut in half) answered nothing itself.
  if (!live && (!interrupted || ledger.state.phase === "done")) {
    await answer(work, reply, ledger.sessionId, "stop", `The session had already ended (\`${ledger.state.phase}\`); nothing to stop.`);
    return;
  }
  await finishEnded(work, ledger, checkRunFor(work, ledger));
}

export async function status(jc: JobContext, ledger: Ledger | null, reply: number): Promise<void> {
  await answer(
    jc,
    reply,
    ledger?.sessionId ?? null,
    "status",
    ledger ? statusComment(ledger.state) : "No Patchgate session for this issue yet. `/agent fix this` starts one.",
  );
}

/**
 * Restart from the last checkpoint: a live session resumes from its ledger (a failed setup runs again) — a parked one republishes
 * what it waits on (idempotently: a push or PR that failed is made now, what exists is adopted). A
 * session that failed after its plan was approved continues where it failed, the plan still approved
 * (its unanswered calls are answered first, like after any crash); one that failed while planning or
 * was cancelled is replaced by a new session on the same task.
 */
export async function retry(jc: JobContext, ledger: Ledger | null, reply: number): Promise<void> {
  if (!ledger) return status(jc, null, reply);
  const s = ledger.state;
  const step = await prepareRetry(ledger, jc.delivery.sender.login);
  const trigger = `retry by @${jc.delivery.sender.login}`;
  if (step.kind === "continue" && !step.reopened) {
    return (await startUnfinished(jc, ledger)) ? continueStart(jc, ledger, trigger) : drive(jc, ledger, trigger);
  }
  if (step.kind === "continue") return drive(jc, ledger, trigger);
  if (step.kind === "done") {
    await answer(jc, reply, ledger.sessionId, "retry", "The session is done. Comment `/agent <instruction>` on its pull request for a follow-up.");
    return;
  }
  const issue = s.task.source.issueNumber ?? reply;
  // The task text was sanitised when first recorded; it is reused as is. Untested work a blocked
  // session pushed is where the new session starts.
  await startSession(jc, ledger, { issue, title: s.task.title, body: s.task.body, instruction: null, followUp: continuesFromBranch(s) });
}

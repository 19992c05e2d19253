import { readEffect } from "../../store/effect-codec.js";
import { effect } from "../../store/effects.js";
import type { Ledger } from "../../store/ledger.js";
import type { SessionStore } from "../../store/types.js";
import type { SessionWork } from "../deps.js";
import { checkRunFor, finishEnded } from "./drive.js";
import { storedPullRequest } from "../outbound/pull-request.js";
import { doneComment, shortHash } from "../outbound/render.js";
import { postEndComment } from "../outbound/replies.js";

/**
 * A session's end is recorded in the ledger first (`published`, `session_failed`) and told on GitHub
 * after: its check run completed, one comment on the issue. A process killed in between leaves an
 * end that no one announced, and no webhook will come for a session that has ended: whoever holds
 * the session next (a restart, a worker taking the lane over) announces it. Both steps are safe to
 * repeat: the run is completed again with the same result, the comment found again by its marker.
 */
const ANNOUNCED: Partial<Record<string, string>> = { done: "done", failed: "ended" };

const posted = async (store: SessionStore, sessionId: string, n: number, what: string) =>
  (await readEffect(store, effect.comment(sessionId, n, what))) !== null;

/** Whether the session ended (done or failed) and its comment saying so was never posted. */
export async function endUnannounced(store: SessionStore, sessionId: string, phase: string, issue: number): Promise<boolean> {
  const what = ANNOUNCED[phase];
  return what !== undefined && !(await posted(store, sessionId, issue, what));
}

export async function announceEnd(work: SessionWork, ledger: Ledger): Promise<void> {
  const s = ledger.state;
  const run = checkRunFor(work, ledger);
  if (s.phase !== "done") return finishEnded(work, ledger, run);
  await run.complete();
  const pr = await storedPullRequest(work.deps.store, ledger.sessionId);
  await postEndComment(work, ledger, "done", doneComment(s, pr?.url ?? ""));
  work.deps.log(`session ${ledger.sessionId} had ended unannounced; announced now`);
}

/**
 * The same for a park: the ledger says the session waits for a human (a plan, a batch of writes),
 * but the process died before the draft PR or the comment that asks them was made, so no human will
 * ever answer. Driving the parked session publishes the park again (each step adopts what was done).
 */
export async function parkUnannounced(store: SessionStore, ledger: Ledger): Promise<boolean> {
  const s = ledger.state;
  const issue = s.task.source.issueNumber ?? 0;
  if (s.phase === "awaiting_plan_approval") return !(await posted(store, ledger.sessionId, issue, `plan-${shortHash(s.planHash ?? "")}`));
  if (s.phase === "awaiting_write_approval") {
    const pr = await storedPullRequest(store, ledger.sessionId);
    return !(await posted(store, ledger.sessionId, pr?.number ?? issue, `batch-${shortHash(s.pending?.digest ?? "")}`));
  }
  return false;
}

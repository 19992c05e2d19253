import { rm } from "node:fs/promises";
import { prepareWorkspace } from "../../agent/session-service.js";
import { readEffect, writeEffect } from "../../store/effect-codec.js";
import { effect, type RecordedStart } from "../../store/effects.js";
import type { Ledger } from "../../store/ledger.js";
import type { SessionStore } from "../../store/types.js";
import type { PushableWorkspace, SessionWork } from "../deps.js";
import { checkRunFor, drive, mirrorFor, openSessionWorkspace, workspaceDir } from "./drive.js";
import { authFor, remoteUrl } from "../outbound/git-remote.js";

/**
 * The second half of starting a session: its clone, its branch, its first check run, then the first
 * resume. A session is created before its clone, so a process that dies in between (or a clone that
 * fails) leaves a session that is not started; whoever picks it up next — the boot resume or
 * `/agent retry` — runs this again, and each step is skipped once the ledger shows it done.
 */
export async function recordStartRequest(store: SessionStore, sessionId: string, req: RecordedStart): Promise<void> {
  await writeEffect(store, effect.startRequest(sessionId), req);
}

/** Created but not yet given a workspace, a branch or its first check run. */
export async function startUnfinished(work: SessionWork, ledger: Ledger): Promise<boolean> {
  const s = ledger.state;
  return s.baseCommit === null || s.lease === null || !(await checkRunFor(work, ledger).started());
}

export async function continueStart(work: SessionWork, ledger: Ledger, trigger: string): Promise<void> {
  const req = await readEffect(work.deps.store, effect.startRequest(ledger.sessionId));
  if (req === null) throw new Error(`session ${ledger.sessionId} was never fully started and has no start request on record`);
  const ws = ledger.state.baseCommit === null ? await freshClone(work, ledger, req) : await openSessionWorkspace(work, ledger);
  if (ledger.state.lease === null)
    await ledger.append({ type: "branch_claimed", branch: req.branch, head: req.followUp ? ws.baseCommit : req.head, ours: req.ours });
  const checkRun = checkRunFor(work, ledger);
  // Until the plan is pushed there is no PR head: the run starts on the commit the session starts
  // from (a run an earlier attempt created there is adopted, not duplicated).
  const { id } = await checkRun.moveTo(ws.baseCommit);
  work.deps.log(`check run ${id} in progress`);
  await drive(work, ledger, trigger, ws, checkRun);
}

async function freshClone(work: SessionWork, ledger: Ledger, req: RecordedStart): Promise<PushableWorkspace> {
  const dir = workspaceDir(work, ledger.sessionId);
  // No workspace was recorded, so whatever is there is a clone that died half-way: not the session's.
  await rm(dir, { recursive: true, force: true });
  const ws = await prepareWorkspace(ledger, {
    source: remoteUrl(work.deps.gitBase, work.delivery.repo),
    dir,
    auth: authFor(work.token),
    ref: req.followUp ? req.branch : undefined,
    mirror: mirrorFor(work, ledger),
  });
  work.deps.log(`cloned at ${ws.baseCommit.slice(0, 7)}`);
  return ws as PushableWorkspace;
}

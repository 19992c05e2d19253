import type { Phase } from "../session/types.js";
import { Ledger } from "../store/ledger.js";
import { drive } from "./drive.js";
import { answer } from "./replies.js";
import { sessionWork, type AppAccess } from "./session-work.js";
import { continueStart, startUnfinished } from "./start-workspace.js";

/**
 * Sessions that were mid-run when the process died resume when the app starts. A parked session
 * waits for a human, whose next webhook wakes it; a session that was planning, executing or
 * publishing waits for no one, so nothing else would. Each becomes a job in its issue's lane (where
 * that issue's webhook work runs too, so the two never overlap) and runs the same `drive` a webhook
 * would, with installation tokens minted when the job runs, not at boot. A session still `queued`
 * died while it was being started (./start-workspace.ts), and its start is finished first.
 */
export const INTERRUPTED_PHASES: readonly Phase[] = ["queued", "planning", "executing", "publishing"];

/** Enqueues one resume per interrupted session; returns how many. */
export async function resumeInterrupted(b: AppAccess): Promise<number> {
  // Only GitHub sessions have an issue key; a local CLI run sharing the store is not ours to resume.
  const sessions = (await b.deps.store.list()).filter((s) => INTERRUPTED_PHASES.includes(s.phase) && s.key !== null);
  // Distinguishes this boot's one-off answers from another boot's (their markers carry the id).
  const boot = Date.now().toString(36);
  for (const s of sessions) {
    b.deps.log(`session ${s.id} was ${s.phase} when the app stopped → queued to resume`);
    b.deps.queue.enqueue({ key: s.key!, name: `boot resume ${s.id}`, run: () => resumeInterruptedSession(b, s.id, `boot-${boot}`, "app restarted") });
  }
  return sessions.length;
}

/**
 * Drives session `id` on if it is mid-run with no one to wake it — after a restart, or (under a
 * durable queue) after its worker died and another took its job. `tag` tells this run's one-off
 * answers from another's (their markers carry it).
 */
export async function resumeInterruptedSession(b: AppAccess, id: string, tag: string, why: string): Promise<void> {
  const ledger = await Ledger.open(b.deps.store, id);
  // A job ahead of this one in the lane (a webhook that arrived first) may have moved it on.
  if (!INTERRUPTED_PHASES.includes(ledger.state.phase)) return;
  const src = ledger.state.task.source;
  if (src.kind !== "github" || src.installationId === undefined || src.issueNumber === undefined) {
    b.deps.log(`session ${id} has no GitHub installation on record; not resumed`);
    return;
  }
  const work = await sessionWork(b, ledger, tag, "boot");
  try {
    if (await startUnfinished(work, ledger)) await continueStart(work, ledger, why);
    else await drive(work, ledger, why);
  } catch (e) {
    const error = e instanceof Error ? e.message : String(e);
    const text = `Patchgate resumed this session after a restart and hit an error: ${error.split("\n")[0]}\n\n\`/agent retry\` continues from the last checkpoint.`;
    await answer(work, src.issueNumber, id, "error", text).catch(() => {});
    throw e;
  }
}

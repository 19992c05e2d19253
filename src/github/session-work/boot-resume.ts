import { Ledger } from "../../store/ledger.js";
import { drive } from "./drive.js";
import { answer } from "../outbound/replies.js";
import type { AppContext } from "../deps.js";
import { sessionWork } from "./session-work.js";
import { continueStart, startUnfinished } from "./start-workspace.js";
import { announceEnd, endUnannounced, parkUnannounced } from "./announce-end.js";
import { leaseWasLost } from "../../store/fence.js";
import { ANNOUNCE_WITHIN_MS, INTERRUPTED_PHASES } from "./boot-candidates.js";

const issueOfKey = (key: string): number => Number(/#(\d+)$/.exec(key)?.[1] ?? 0);

/**
 * Sessions that were mid-run when the process died resume when the app starts. A parked session
 * waits for a human, whose next webhook wakes it; a session that was planning, executing or
 * publishing waits for no one, so nothing else would. Each becomes a job in its issue's lane (where
 * that issue's webhook work runs too, so the two never overlap) and runs the same `drive` a webhook
 * would, with installation tokens minted when the job runs, not at boot. A session still `queued`
 * died while it was being started (./start-workspace.ts), and its start is finished first.
 */
/** Enqueues one resume per interrupted session; returns how many. */
export async function resumeInterrupted(b: AppContext): Promise<number> {
  // Only GitHub sessions have an issue key; a local CLI run sharing the store is not ours to resume.
  const all = (await b.deps.store.list()).filter((s) => s.key !== null);
  const sessions = all.filter((s) => INTERRUPTED_PHASES.includes(s.phase));
  // Ended or parked in the ledger, killed before GitHub was told (./announce-end.ts); recent ones only.
  for (const s of all.filter((x) => !INTERRUPTED_PHASES.includes(x.phase) && Date.parse(x.updatedAt) > Date.now() - ANNOUNCE_WITHIN_MS)) {
    if (await endUnannounced(b.deps.store, s.id, s.phase, issueOfKey(s.key!))) sessions.push(s);
    else if (s.phase.startsWith("awaiting_") && (await parkUnannounced(b.deps.store, await Ledger.open(b.deps.store, s.id)))) sessions.push(s);
  }
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
export async function resumeInterruptedSession(b: AppContext, id: string, tag: string, why: string): Promise<void> {
  const ledger = await Ledger.open(b.deps.store, id);
  const src = ledger.state.task.source;
  // A job ahead of this one in the lane (a webhook that arrived first) may have moved it on.
  const unannounced = await endUnannounced(b.deps.store, id, ledger.state.phase, src.issueNumber ?? 0);
  const unasked = await parkUnannounced(b.deps.store, ledger);
  if (!INTERRUPTED_PHASES.includes(ledger.state.phase) && !unannounced && !unasked) return;
  if (src.kind !== "github" || src.installationId === undefined || src.issueNumber === undefined) {
    b.deps.log(`session ${id} has no GitHub installation on record; not resumed`);
    return;
  }
  const work = await sessionWork(b, ledger, tag, "boot");
  try {
    if (unannounced) await announceEnd(work, ledger);
    else if (await startUnfinished(work, ledger)) await continueStart(work, ledger, why);
    else await drive(work, ledger, why);
  } catch (e) {
    if (leaseWasLost(e)) throw e; // the session is another worker's now: it is not ours to report on
    const error = e instanceof Error ? e.message : String(e);
    const text = `Patchgate resumed this session after a restart and hit an error: ${error.split("\n")[0]}\n\n\`/agent retry\` continues from the last checkpoint.`;
    await answer(work, src.issueNumber, id, "error", text).catch(() => {});
    throw e;
  }
}

import type { QueuedItem } from "../../queue/pg/lane-table.js";
import { TERMINAL_PHASES } from "../../session/types.js";
import { Ledger } from "../../store/ledger.js";
import { checkRunFor, finishEnded } from "./drive.js";
import type { AppContext } from "../deps.js";
import { sessionWork } from "./session-work.js";

/** Why the session failed, as the check run and the issue comment say it. */
function deadLetterMessage(item: Pick<QueuedItem, "name" | "attempts">): string {
  return `its job (${item.name}) was dead-lettered: the worker running it died ${item.attempts - 1} times, so no worker runs it again`;
}

/**
 * A job the durable queue gave up on (src/queue/pg/lane-runner.ts: its worker died `maxAttempts`
 * times running it) ends the session visibly instead of leaving it mid-run with nobody to
 * drive it: the ledger records `session_failed` (`worker_died`), the check run completes as a
 * failure from that ledger, and the issue hears it once with what to do (`/agent retry`, which
 * continues an approved plan). Failure rather than action_required: the session did not reach its
 * goal, and unlike a blocked one it needs no human to provide anything first; a retry may just work.
 *
 * Idempotent, so a worker that dies in here is followed by one that finishes it: an ended session
 * is not failed twice, and the check run and the comment are effects recorded once. The inbox row of
 * a dead delivery is marked done, so a receiver's boot replay does not queue the poison again.
 * Control lanes (`/agent stop`, `/agent status`) end nothing: their job is not the session's work.
 */
export async function endDeadLettered(a: AppContext, item: QueuedItem): Promise<void> {
  const spec = item.spec as { kind?: string; id?: unknown };
  if (spec.kind === "delivery" && typeof spec.id === "string") await a.deps.store.completeDelivery(spec.id);
  if (/^(control|lifecycle):/.test(item.lane)) return; // not a session's lane
  const id = await a.deps.store.findByKey(item.lane);
  if (!id) return a.deps.log(`dead letter ${item.name}: no session for ${item.lane}`, "warn", { job: item.name, lane: item.lane });
  const ledger = await Ledger.open(a.deps.store, id);
  if (!TERMINAL_PHASES.includes(ledger.state.phase)) {
    await ledger.append({ type: "session_failed", reason: "worker_died", message: deadLetterMessage(item) });
  } else if (ledger.state.failure?.reason !== "worker_died") {
    return; // it ended on its own before the job died; that ending was already published
  }
  const work = await sessionWork(a, ledger, `dead-${item.id}`, "dead_letter");
  await finishEnded(work, ledger, checkRunFor(work, ledger));
  a.deps.log(`session ${id} failed: ${deadLetterMessage(item)}`, "error", { session: id, job: item.name, lane: item.lane });
}

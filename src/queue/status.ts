import type { SessionStore } from "../store/types.js";
import type { QueueCounts } from "./types.js";

/**
 * What an operator asks of a running installation: the queue (depth, running jobs, leases, failed
 * jobs, dead letters) and the sessions by phase. One function for `patchgate status` and the
 * receiver's `/patchgate/health`, so the two never disagree.
 */
export interface OperationsStatus extends QueueCounts {
  sessions: Record<string, number>;
}

export async function operationsStatus(queue: Promise<QueueCounts>, store: Pick<SessionStore, "list">): Promise<OperationsStatus> {
  const [counts, list] = await Promise.all([queue, store.list()]);
  const sessions: Record<string, number> = {};
  for (const s of list) sessions[s.phase] = (sessions[s.phase] ?? 0) + 1;
  return { ...counts, sessions };
}

/** The same status reduced to numbers: no lane (repository id, issue), no worker's host, no error text. */
export interface StatusCounts {
  queued: number;
  running: number;
  leases: number;
  failed: number;
  dead: number;
  sessions: Record<string, number>;
}

export function countsOnly(s: OperationsStatus): StatusCounts {
  return { queued: s.queued, running: s.running, leases: s.leases.length, failed: s.failed.length, dead: s.dead.length, sessions: s.sessions };
}

import type { Phase } from "../../session/types.js";
import type { SessionStore, SessionSummary } from "../../store/types.js";

/** Phases in which a session waits for no one: after a restart nothing but a resume moves it on. */
export const INTERRUPTED_PHASES: readonly Phase[] = ["queued", "planning", "executing", "publishing"];

/** How far back a boot looks for sessions that ended unannounced. */
export const ANNOUNCE_WITHIN_MS = 7 * 24 * 3600_000;

/** Whether a boot resume (./boot-resume.ts) would look at `s` at all. */
function bootCandidate(s: SessionSummary, now: number): boolean {
  // Only GitHub sessions have an issue key; a local CLI run sharing the store is not ours to resume.
  return s.key !== null && (INTERRUPTED_PHASES.includes(s.phase) || Date.parse(s.updatedAt) > now - ANNOUNCE_WITHIN_MS);
}

/**
 * Whether the store holds a session a boot resume would look at. Asked first, so that a process
 * with nothing to resume never loads what resuming needs (the session runtime, the agent, posting).
 */
export async function anyBootCandidate(store: Pick<SessionStore, "list">): Promise<boolean> {
  const now = Date.now();
  return (await store.list()).some((s) => bootCandidate(s, now));
}

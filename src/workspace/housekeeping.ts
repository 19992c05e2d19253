import { randomBytes } from "node:crypto";
import { renameSync } from "node:fs";
import { readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { TERMINAL_PHASES } from "../session/types.js";
import type { SessionStore, SessionSummary } from "../store/types.js";

/** Entries being removed: renamed first, so a sweep killed half-way leaves only these behind. */
const REMOVING = ".removing-";

export const DEFAULT_RETENTION_HOURS = 72;

export interface SweepOptions {
  /** Directories holding one entry per session id: the workspaces, the per-session caches. */
  roots: string[];
  /** How long after its end (its last ledger write) a session's directories stay. */
  retentionMs: number;
  now: number;
  /**
   * Whether this process runs work for issue key `key` now (AbortRegistry.active): every job that
   * opens a workspace registers there before it does, so an ended session being retried is skipped.
   */
  inUse: (key: string) => boolean;
}

/** Pure: whether session `s` is ended and has been for the retention period. */
export function expired(s: Pick<SessionSummary, "phase" | "updatedAt">, retentionMs: number, now: number): boolean {
  return TERMINAL_PHASES.includes(s.phase) && now - Date.parse(s.updatedAt) >= retentionMs;
}

/**
 * One pass: removes the directories of sessions that ended more than `retentionMs` ago, and what an
 * earlier pass left half-removed. A session that is not ended (running, parked for a human, queued)
 * keeps its directories whatever their age, and so does an entry the store does not know (another
 * tool's, or a start that has not recorded its session yet). Idempotent: each entry is renamed
 * (atomic) before it is deleted, and the renamed ones are deleted first on the next pass, so a
 * crash anywhere leaves either the entry or its `.removing-` twin. A retried session whose
 * workspace went is rebuilt from its ledger (workspace/rebuild.ts). Returns the session ids removed.
 */
export async function sweepEndedSessions(store: Pick<SessionStore, "list">, o: SweepOptions): Promise<string[]> {
  const sessions = new Map((await store.list()).map((s) => [s.id, s]));
  const removed = new Set<string>();
  // Found in use once, a session keeps all its directories this pass: its job may end while the pass
  // is between roots, and a workspace kept with its cache gone would be a half-swept session.
  const busy = new Set<string>();
  for (const root of o.roots) {
    for (const name of await entries(root)) {
      if (name.startsWith(REMOVING)) {
        await rm(join(root, name), { recursive: true, force: true });
        continue;
      }
      const s = sessions.get(name);
      if (!s || !expired(s, o.retentionMs, o.now)) continue;
      // Checked and renamed in one synchronous step: no job of this process can open it in between.
      if (busy.has(name)) continue;
      if (s.key !== null && o.inUse(s.key)) {
        busy.add(name);
        continue;
      }
      const doomed = join(root, `${REMOVING}${name}-${randomBytes(3).toString("hex")}`);
      if (!renamed(join(root, name), doomed)) continue;
      await rm(doomed, { recursive: true, force: true });
      removed.add(name);
    }
  }
  return [...removed];
}

async function entries(root: string): Promise<string[]> {
  try {
    return await readdir(root);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw e;
  }
}

function renamed(from: string, to: string): boolean {
  try {
    renameSync(from, to);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return false; // another pass took it
    throw e;
  }
}

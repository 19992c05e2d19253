import { sweepEndedSessions } from "../../workspace/housekeeping.js";
import { pruneKeptWalks } from "../../sandbox/credential-walk-prune.js";
import type { PatchgateDeps } from "../deps.js";
import { everyInterval } from "../inbound/reconciler.js";

/**
 * One pass over this process's disk: the workspaces and per-session caches of long-ended sessions,
 * and the kept toolchain walks no process would take again.
 */
async function housekeepingPass(deps: PatchgateDeps, retentionMs: number): Promise<string[]> {
  const roots = [deps.workspacesDir, ...(deps.sandboxExtras?.cacheRoot ? [deps.sandboxExtras.cacheRoot] : [])];
  const removed = await sweepEndedSessions(deps.store, { roots, retentionMs, now: Date.now(), inUse: (key) => deps.aborts.active(key) });
  if (removed.length > 0) deps.log(`housekeeping: removed the workspaces of ${removed.length} session(s) ended over ${retentionMs / 3_600_000} h ago`);
  const walks = deps.sandboxExtras?.toolchainWalks;
  const pruned = walks ? await pruneKeptWalks(walks) : null;
  if (pruned && pruned.removed > 0) deps.log(`housekeeping: removed ${pruned.removed} kept toolchain walk(s) no longer true`);
  return removed;
}

/**
 * Housekeeping where sessions run (the app, each worker: every worker has a disk of its own): a
 * pass at start, then every `everyMs`, until the settings' signal aborts. A pass that fails (the
 * store unreachable) is logged and the next one tries again.
 */
export function startHousekeeping(deps: PatchgateDeps): void {
  const h = deps.housekeeping;
  if (!h) return;
  const pass = () => housekeepingPass(deps, h.retentionMs).catch((e: unknown) => deps.log(`housekeeping: ${e instanceof Error ? e.message : String(e)}`));
  everyInterval(pass, { firstAfterMs: 0, everyMs: h.everyMs, signal: h.signal, log: deps.log });
}

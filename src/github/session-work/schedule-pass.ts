import { randomUUID } from "node:crypto";
import { latestDue, parseCron } from "../../config/cron.js";
import { claimEffect, readEffect, writeEffect } from "../../store/effect-codec.js";
import { effect } from "../../store/effects.js";
import type { AppContext } from "../deps.js";
import type { Firing } from "./schedule-fire.js";
import { firingBegun, knownSchedules, unfinishedFiring, type ScheduledRepo } from "./schedule-registry.js";
import { tenantKey } from "../../session/tenant.js";

/** Firings this process has queued and not yet finished: a pass does not queue one twice (in-process queue). */
const queued = new Set<string>();

/**
 * One look at every known schedule at time `now`: each that came due since it last fired fires
 * once, for its latest due time, however many it missed (the app was down) and however many passes
 * or processes look (each due time is claimed in the store once). A firing that never got as far as
 * its run (the app stopped, GitHub failed) is tried again until a later due time replaces it; its
 * run starts at most once (./schedule-fire.ts). Run at start and then each minute.
 */
export async function schedulePass(a: AppContext, now: Date): Promise<number> {
  let fired = 0;
  for (const repo of await knownSchedules(a.deps.store))
    for (const s of repo.schedules) {
      const tenant = { installationId: repo.installationId, repoId: repo.repoId };
      const claimed = await claimDue(a, repo, s, now);
      if (claimed) await firingBegun(a.deps.store, tenant, s.name, claimed);
      const due = claimed ?? (await unfinishedFiring(a.deps.store, tenant, s.name));
      const id = `${tenantKey(tenant)}:${s.name}@${due}`;
      if (!due) continue;
      // A durable queue's job runs from its spec, on any worker, which this process never hears
      // of: there a firing still waiting is queued again, and its run still starts once (./schedule-fire.ts).
      if (!a.deps.queue.durable) {
        if (queued.has(id)) continue;
        queued.add(id);
      }
      fired++;
      const firing: Firing = { repo, name: s.name, due };
      a.deps.queue.enqueue({
        key: `schedule:${tenantKey(tenant)}:${s.name}`,
        name: `schedule ${s.name} ${due}`,
        group: `installation:${repo.installationId}`,
        spec: { kind: "schedule-fire", firing },
        run: async () => {
          try {
            await (await import("./schedule-fire.js")).fireSchedule(a, firing);
          } finally {
            queued.delete(id);
          }
        },
      });
    }
  return fired;
}

/** The due time (ISO) this pass fires `s` for, or null: not due, or another pass claimed it. */
async function claimDue(a: AppContext, repo: ScheduledRepo, s: ScheduledRepo["schedules"][number], now: Date): Promise<string | null> {
  const { store } = a.deps;
  const tenant = { installationId: repo.installationId, repoId: repo.repoId };
  const cron = parseCron(s.cron);
  const last = await readEffect(store, effect.scheduleFired(tenant, s.name));
  if (typeof cron === "string" || last === null) return null;
  const due = latestDue(cron, new Date(last), now)?.toISOString();
  if (!due) return null;
  // Unique to this pass: two passes of the same due time tell which one won.
  const mine = randomUUID();
  const holder = await claimEffect(store, effect.claim(repo.repoId, `schedule:${repo.installationId}:${s.name}@${due}`), mine);
  // Whoever claimed it, this due time is spent: a later pass compares with it.
  await writeEffect(store, effect.scheduleFired(tenant, s.name), due);
  return holder === mine && new Date(due) > new Date(last) ? due : null;
}

import { randomUUID } from "node:crypto";
import { latestDue, parseCron } from "../../config/cron.js";
import { claimEffect, readEffect, writeEffect } from "../../store/effect-codec.js";
import { effect } from "../../store/effects.js";
import type { AppContext } from "../deps.js";
import type { Firing } from "./schedule-fire.js";
import { knownSchedules, type ScheduledRepo } from "./schedule-registry.js";

/**
 * One look at every known schedule at time `now`: each that came due since it last fired fires
 * once, for its latest due time, however many it missed (the app was down) and however many passes
 * or processes look (each due time is claimed in the store once). Run at start and then each minute.
 */
export async function schedulePass(a: AppContext, now: Date): Promise<number> {
  let fired = 0;
  for (const repo of await knownSchedules(a.deps.store))
    for (const s of repo.schedules) {
      const due = await claimDue(a, repo, s, now);
      if (!due) continue;
      fired++;
      const firing: Firing = { repo, name: s.name, due };
      a.deps.queue.enqueue({
        key: `schedule:i${repo.installationId}-r${repo.repoId}:${s.name}`,
        name: `schedule ${s.name} ${due}`,
        run: async () => (await import("./schedule-fire.js")).fireSchedule(a, firing),
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

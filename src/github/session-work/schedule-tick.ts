import { readEffect } from "../../store/effect-codec.js";
import { effect, SCHEDULED } from "../../store/effects.js";
import type { SessionStore } from "../../store/types.js";
import type { AppContext } from "../deps.js";

/** Whether the store knows a repository with schedules: asked without loading the pass. */
async function anyScheduled(store: SessionStore): Promise<boolean> {
  return (await store.effectsOf(SCHEDULED)).length > 0 || (await readEffect(store, effect.schedules())) !== null;
}

/**
 * One schedule pass at `now`, whichever clock rang it: the single process's timer, or the minute
 * wake-up a scaled-out app's queue hands to one of its workers. The pass reads repositories'
 * configuration (zod, the automations' schema): an app whose store knows no repository with
 * schedules stays as light as one without this feature. How many firings it queued.
 */
export async function runSchedules(a: AppContext, now: Date): Promise<number> {
  if (!(await anyScheduled(a.deps.store))) return 0;
  const { schedulePass } = await import("./schedule-pass.js");
  const fired = await schedulePass(a, now);
  if (fired > 0) a.deps.log(`${fired} schedule(s) fired`);
  return fired;
}

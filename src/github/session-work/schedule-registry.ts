import { z } from "zod";
import { triggerOf, type Automation } from "../../config/automations.js";
import { claimEffect, EffectDecodeError, readEffect, writeEffect } from "../../store/effect-codec.js";
import { effect, SCHEDULED } from "../../store/effects.js";
import type { SessionStore } from "../../store/types.js";
import type { Repo } from "../inbound/intent.js";
import { tenantKey, type Tenant } from "../../session/tenant.js";

/**
 * Which repositories have schedules, kept in the store so that a restarted process, or any worker
 * of a scaled-out app, fires them (and catches up on a missed firing) before any event of theirs
 * arrives. One record per repository: processes that learn different repositories at once write
 * different rows, and none overwrites another's. Learnt each time the default branch's config is
 * read for a session or a firing; a repository whose config no longer declares one is kept with
 * none (a record cannot be removed) and skipped. The crons here only say when to look: at each
 * firing the config is read again, and what it says then is what runs.
 */
export const EntrySchema = z.object({
  installationId: z.number().int().positive(),
  repoId: z.number().int().positive(),
  owner: z.string().min(1),
  repo: z.string().min(1),
  defaultBranch: z.string().min(1),
  schedules: z.array(z.object({ name: z.string().min(1), cron: z.string().min(1) })),
});
const ListSchema = z.array(EntrySchema);

type Store = Pick<SessionStore, "getEffect" | "putEffect" | "claimEffect" | "effectsOf">;

export type ScheduledRepo = z.infer<typeof EntrySchema>;

function decode<T>(e: { owner: string; key: string }, raw: string, schema: z.ZodType<T>, what: string): T {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new EffectDecodeError(e.owner, e.key, raw, "not JSON");
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new EffectDecodeError(e.owner, e.key, raw, parsed.error.issues[0]?.message ?? what);
  return parsed.data;
}

/** The list the first version kept in one record, for the repositories that have no record of their own yet. */
async function olderList(store: Store): Promise<ScheduledRepo[]> {
  const raw = await readEffect(store, effect.schedules());
  return raw === null ? [] : decode(effect.schedules(), raw, ListSchema, "not a list of scheduled repositories");
}

export async function knownSchedules(store: Store): Promise<ScheduledRepo[]> {
  const rows = await store.effectsOf(SCHEDULED);
  const own = rows.map((r) => decode({ owner: SCHEDULED, key: r.key }, r.value, EntrySchema, "not a scheduled repository"));
  const recorded = new Set(own.map((e) => tenantKey(e)));
  const older = (await olderList(store)).filter((e) => !recorded.has(tenantKey(e)));
  return [...own, ...older].filter((e) => e.schedules.length > 0);
}

/**
 * Records the schedules `automations` declares for `repo` (none: the repository is kept with none). A
 * schedule seen for the first time starts counting at `now`: times before it were never missed.
 */
export async function rememberSchedules(store: Store, repo: Repo, automations: readonly Automation[], now: Date): Promise<void> {
  const schedules = automations.flatMap((a) => {
    const t = triggerOf(a);
    return t.kind === "schedule" ? [{ name: a.name, cron: t.cron }] : [];
  });
  const tenant = { installationId: repo.installationId, repoId: repo.id };
  const record = effect.scheduledRepo(tenant);
  // Most repositories never declare one: they leave no record behind.
  if (schedules.length === 0 && (await readEffect(store, record)) === null && !(await olderList(store)).some((e) => tenantKey(e) === tenantKey(tenant))) return;
  for (const s of schedules) await claimEffect(store, effect.scheduleFired(tenant, s.name), now.toISOString());
  const entry = { installationId: repo.installationId, repoId: repo.id, owner: repo.owner, repo: repo.repo, defaultBranch: repo.defaultBranch, schedules };
  await writeEffect(store, record, JSON.stringify(entry));
}

const DONE = " done";

/** A firing is recorded before its job is queued, and marked done when its run started or was turned down. */
export async function firingBegun(store: Store, t: Tenant, name: string, due: string): Promise<void> {
  await writeEffect(store, effect.scheduleRun(t, name), due);
}

export async function firingDone(store: Store, t: Tenant, name: string, due: string): Promise<void> {
  await writeEffect(store, effect.scheduleRun(t, name), `${due}${DONE}`);
}

/** The due time of the last firing when it never got as far as its run (the app stopped, GitHub failed): it is tried again. */
export async function unfinishedFiring(store: Store, t: Tenant, name: string): Promise<string | null> {
  const run = await readEffect(store, effect.scheduleRun(t, name));
  return run === null || run.endsWith(DONE) ? null : run;
}

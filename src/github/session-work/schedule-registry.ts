import { z } from "zod";
import { triggerOf, type Automation } from "../../config/automations.js";
import { claimEffect, EffectDecodeError, readEffect, writeEffect } from "../../store/effect-codec.js";
import { effect } from "../../store/effects.js";
import type { SessionStore } from "../../store/types.js";
import type { Repo } from "../inbound/intent.js";
import type { Tenant } from "../../session/tenant.js";

/**
 * Which repositories have schedules, kept in the store so that a restarted process fires them (and
 * catches up on a missed firing) before any event of theirs arrives. Learnt each time the default
 * branch's config is read for a session or a firing; a repository whose config no longer declares
 * one is dropped. The crons here only say when to look: at each firing the config is read again,
 * and what it says then is what runs.
 */
const EntrySchema = z.object({
  installationId: z.number().int().positive(),
  repoId: z.number().int().positive(),
  owner: z.string().min(1),
  repo: z.string().min(1),
  defaultBranch: z.string().min(1),
  schedules: z.array(z.object({ name: z.string().min(1), cron: z.string().min(1) })).min(1),
});
const ListSchema = z.array(EntrySchema);

type Store = Pick<SessionStore, "getEffect" | "putEffect" | "claimEffect">;

export type ScheduledRepo = z.infer<typeof EntrySchema>;

/** One process writes the list at a time (the SQLite store's app is one process). */
let writing: Promise<unknown> = Promise.resolve();

export async function knownSchedules(store: Store): Promise<ScheduledRepo[]> {
  const raw = await readEffect(store, effect.schedules());
  if (raw === null) return [];
  const e = effect.schedules();
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new EffectDecodeError(e.owner, e.key, raw, "not JSON");
  }
  const parsed = ListSchema.safeParse(value);
  if (!parsed.success) throw new EffectDecodeError(e.owner, e.key, raw, parsed.error.issues[0]?.message ?? "not a list of scheduled repositories");
  return parsed.data;
}

/**
 * Records the schedules `automations` declares for `repo` (none: the repository is dropped). A
 * schedule seen for the first time starts counting at `now`: times before it were never missed.
 */
export function rememberSchedules(store: Store, repo: Repo, automations: readonly Automation[], now: Date): Promise<void> {
  const schedules = automations.flatMap((a) => {
    const t = triggerOf(a);
    return t.kind === "schedule" ? [{ name: a.name, cron: t.cron }] : [];
  });
  const tenant = { installationId: repo.installationId, repoId: repo.id };
  const done = writing.then(async () => {
    for (const s of schedules) await claimEffect(store, effect.scheduleFired(tenant, s.name), now.toISOString());
    const others = (await knownSchedules(store)).filter((e) => e.installationId !== repo.installationId || e.repoId !== repo.id);
    const entry = { installationId: repo.installationId, repoId: repo.id, owner: repo.owner, repo: repo.repo, defaultBranch: repo.defaultBranch, schedules };
    const next = schedules.length > 0 ? [...others, entry] : others;
    await writeEffect(store, effect.schedules(), JSON.stringify(next));
  });
  writing = done.catch(() => {});
  return done;
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

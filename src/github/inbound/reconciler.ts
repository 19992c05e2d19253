import { readEffect, writeEffect } from "../../store/effect-codec.js";
import { effect } from "../../store/effects.js";
import type { SessionStore } from "../../store/types.js";
import type { AppLog } from "../app-log.js";
import type { Octokit } from "../octokit.js";

/**
 * GitHub does not retry a delivery that failed (the app was down, or answered 5xx): it only keeps it
 * in the app's "Recent deliveries" for a few days. The reconciler reads that list with the app's JWT
 * (`GET /app/hook/deliveries`, newest first) and asks GitHub to send again (`POST
 * /app/hook/deliveries/{id}/attempts`) every event Patchgate acts on that has no successful attempt.
 * The redelivery carries the same `X-GitHub-Delivery` guid, so the inbox deduplicates it like any
 * other: one that was stored after all is a no-op or finishes its pending row, never a second run.
 * Requests are counted per guid (in the store) and capped, so an event that keeps failing is given up
 * on instead of being asked for forever. GitHub lists a redelivery's attempt only once the app has
 * answered it, so a request stays in flight until an attempt newer than the one it was made from
 * shows up (or `inFlightMs` has passed): asked again before, a slow app would be sent the event twice.
 */
export interface ReconcileOptions {
  /** Deliveries older than this are left alone: a days-old command acted on now would surprise. */
  lookbackMs: number;
  /** Redelivery requests per event at most. */
  maxRequests: number;
  /** Pages of 100 read per run at most. */
  maxPages: number;
  /** A redelivery with no attempt after this long is taken as dropped by GitHub, and asked for again. */
  inFlightMs: number;
}

export const RECONCILE_DEFAULTS: ReconcileOptions = { lookbackMs: 24 * 3600_000, maxRequests: 3, maxPages: 10, inFlightMs: 10 * 60_000 };

interface Attempt {
  id: number;
  guid: string;
  delivered_at: string;
  status_code: number;
  event: string;
  action: string | null;
}

export interface ReconcileAccess {
  /** The app itself (JWT). */
  app: () => Promise<Octokit>;
  store: SessionStore;
  log: AppLog;
  /** Whether Patchgate acts on `event.action` (others are not worth a redelivery). */
  handles: (name: string) => boolean;
}

/** One pass; returns how many redeliveries were asked for. */
export async function reconcileDeliveries(a: ReconcileAccess, o: ReconcileOptions = RECONCILE_DEFAULTS, now = Date.now()): Promise<number> {
  const octokit = await a.app();
  const byGuid = new Map<string, Attempt[]>();
  for (const d of await recentAttempts(octokit, now - o.lookbackMs, o.maxPages)) {
    if (!a.handles(`${d.event}.${d.action ?? ""}`)) continue;
    byGuid.set(d.guid, [...(byGuid.get(d.guid) ?? []), d]);
  }
  let asked = 0;
  for (const [guid, attempts] of byGuid) {
    if (attempts.some((d) => d.status_code >= 200 && d.status_code < 300)) continue;
    const asks = effect.redeliveries(guid);
    const requests = (await readEffect(a.store, asks)) ?? 0;
    if (requests >= o.maxRequests) continue;
    const newest = attempts[0];
    const last = await readEffect(a.store, effect.lastRedelivery(guid));
    if (last && last.attempt === newest.id && now - last.askedAt < o.inFlightMs) continue;
    await octokit.request("POST /app/hook/deliveries/{delivery_id}/attempts", { delivery_id: newest.id });
    await writeEffect(a.store, effect.lastRedelivery(guid), { attempt: newest.id, askedAt: now });
    await writeEffect(a.store, asks, requests + 1);
    a.log(
      `delivery ${guid} (${newest.event}.${newest.action ?? ""}) failed on GitHub (status ${newest.status_code}) → redelivery requested (${requests + 1} of ${o.maxRequests})`,
    );
    asked += 1;
  }
  return asked;
}

/** Newest first, back to `since` (or `maxPages` pages). */
async function recentAttempts(octokit: Octokit, since: number, maxPages: number): Promise<Attempt[]> {
  const out: Attempt[] = [];
  let pages = 0;
  for await (const { data } of octokit.paginate.iterator("GET /app/hook/deliveries", { per_page: 100 })) {
    const page = data as Attempt[];
    out.push(...page.filter((d) => Date.parse(d.delivered_at) >= since));
    pages += 1;
    if (pages >= maxPages || page.some((d) => Date.parse(d.delivered_at) < since)) break;
  }
  return out;
}

/**
 * Runs `pass` after `firstAfterMs` (the app is listening by then: a redelivery asked for before it
 * listens fails again, and is asked for again next time), then every `everyMs`, never two at once,
 * until `signal` aborts. The timers do not keep the process alive.
 */
export function everyInterval(pass: () => Promise<unknown>, o: { firstAfterMs: number; everyMs: number; signal?: AbortSignal; log: AppLog }): void {
  let running = false;
  let timer: NodeJS.Timeout;
  const tick = async () => {
    if (running || o.signal?.aborted) return;
    running = true;
    try {
      await pass();
    } catch (e) {
      o.log(`reconciler: ${e instanceof Error ? e.message : String(e)}`, "error");
    } finally {
      running = false;
    }
    if (!o.signal?.aborted) timer = setTimeout(tick, o.everyMs).unref();
  };
  timer = setTimeout(tick, o.firstAfterMs).unref();
  o.signal?.addEventListener("abort", () => clearTimeout(timer), { once: true });
}

import { join } from "node:path";
import { DEFAULT_MIN_FREE_BYTES } from "../../workspace/disk-guard.js";
import { DEFAULT_MIRROR_MAX_AGE_MS, DEFAULT_MIRROR_MAX_BYTES, type MirrorSettings } from "../../workspace/mirror-settings.js";
import { DEFAULT_RETENTION_HOURS } from "../../workspace/housekeeping.js";
import type { OperatorEnv } from "../../config/operator-env.js";
import type { PatchgateDeps } from "../deps.js";

const HOUR_MS = 3_600_000;

/** A number ≥ 0 from the environment (fractions allowed), or `fallback`; anything else stops the app, naming the variable. */
function amount(env: OperatorEnv, name: keyof OperatorEnv, fallback: number, unit: string): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === "") return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a number of ${unit} ≥ 0, not ${JSON.stringify(raw)}`);
  return n;
}

/**
 * PATCHGATE_WORKSPACE_RETENTION_HOURS (default 72): how long an ended session's workspace and cache
 * stay for a retry to reuse; swept at start and every hour (more often when the retention is shorter).
 */
export function housekeepingFromEnv(env: OperatorEnv): PatchgateDeps["housekeeping"] {
  const retentionMs = amount(env, "PATCHGATE_WORKSPACE_RETENTION_HOURS", DEFAULT_RETENTION_HOURS, "hours") * HOUR_MS;
  return { retentionMs, everyMs: Math.max(60_000, Math.min(HOUR_MS, retentionMs)) };
}

/** PATCHGATE_MIN_FREE_DISK_GB (GiB, default 2; 0 turns the guard off). */
export function diskGuardFromEnv(env: OperatorEnv): PatchgateDeps["diskGuard"] {
  const gib = amount(env, "PATCHGATE_MIN_FREE_DISK_GB", DEFAULT_MIN_FREE_BYTES / 2 ** 30, "GiB");
  return gib === 0 ? null : { minFreeBytes: Math.round(gib * 2 ** 30) };
}

/**
 * PATCHGATE_MIRROR_MAX_AGE_DAYS (default 14; 0 turns mirrors off: every session clones in full) and
 * PATCHGATE_MIRROR_MAX_GB (default 20): one bare mirror per repository under `<dataDir>/mirrors`,
 * removed when unused for that long or, least recently used first, beyond that size.
 */
export function mirrorsFromEnv(env: OperatorEnv, dataDir: string): MirrorSettings | undefined {
  const days = amount(env, "PATCHGATE_MIRROR_MAX_AGE_DAYS", DEFAULT_MIRROR_MAX_AGE_MS / (24 * HOUR_MS), "days");
  const gib = amount(env, "PATCHGATE_MIRROR_MAX_GB", DEFAULT_MIRROR_MAX_BYTES / 2 ** 30, "GiB");
  return days === 0 ? undefined : { root: join(dataDir, "mirrors"), maxAgeMs: days * 24 * HOUR_MS, maxBytes: Math.round(gib * 2 ** 30) };
}

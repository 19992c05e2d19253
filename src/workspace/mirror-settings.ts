import type { Tenant } from "../session/tenant.js";

/** Where the mirrors (./mirror.ts) live and when they are evicted: apart, so settings load no git. */
export interface MirrorSettings {
  /** `<dataDir>/mirrors`. */
  root: string;
  /** Mirrors not used for this long are removed (default 14 days). */
  maxAgeMs?: number;
  /** Beyond this total size the least recently used mirrors are removed (default 20 GiB). */
  maxBytes?: number;
}

export const DEFAULT_MIRROR_MAX_AGE_MS = 14 * 24 * 3600 * 1000;
export const DEFAULT_MIRROR_MAX_BYTES = 20 * 1024 ** 3;

/** A mirror for one clone: where mirrors live, and whose repository this clone is (the mirror's key). */
export interface MirrorUse {
  settings: MirrorSettings;
  tenant: Tenant;
}

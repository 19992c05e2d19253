import type { SetupCacheRecord } from "../session/types.js";

/** ", restored from the dependency cache (212 MB)" and the like, for the timeline and the check run. */
export function dependencyCacheText(c: SetupCacheRecord | undefined): string {
  if (!c) return "";
  const mb = c.bytes === undefined ? "" : ` (${(c.bytes / 1e6).toFixed(1)} MB)`;
  if (c.outcome === "restored") return `, restored from the dependency cache${mb} instead of running`;
  if (c.outcome === "stored") return `, stored in the dependency cache${mb}`;
  return `, not stored in the dependency cache: ${c.reason ?? "unknown reason"}`;
}

import { createHash } from "node:crypto";
import type { Plan } from "../../session/types.js";

/**
 * An approval binds to the plan's hash (DESIGN §1), so the hash must depend on the plan's content
 * only: keys are sorted at every level, whatever order the model or a JSON round trip produced.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** sha256 hex of the canonical JSON of `{summary, steps}` (extra fields never enter the hash). */
export function planHash(plan: Plan): string {
  return createHash("sha256")
    .update(canonicalJson({ summary: plan.summary, steps: plan.steps }))
    .digest("hex");
}

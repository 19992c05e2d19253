import { createHash } from "node:crypto";
import { canonicalJson } from "../../session/canonical-json.js";
import type { Plan } from "../../session/types.js";

/**
 * sha256 hex of the canonical JSON of `{summary, steps}`: an approval binds to the plan's hash (DESIGN §1), so
 * it depends on the plan's content only, whatever key order the model or a JSON round trip produced;
 * extra fields never enter the hash.
 */
export function planHash(plan: Plan): string {
  return createHash("sha256")
    .update(canonicalJson({ summary: plan.summary, steps: plan.steps }))
    .digest("hex");
}

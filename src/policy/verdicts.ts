import type { Decision } from "../session/types.js";
import { BUILTIN_RULE } from "./builtin-rules.js";
import type { PolicyRule } from "./types.js";

/** A decision and the rule that made it: what the evaluator combines. */
export type Verdict = { decision: Decision; rule: string };

const RANK: Record<Decision, number> = { allow: 0, ask: 1, deny: 2 };

export const DEFAULT_VERDICT: Verdict = { decision: "ask", rule: BUILTIN_RULE.DEFAULT_ASK };

/** Strictest verdict; on a tie the earliest (rule order) keeps its place, so results are stable. */
export function strictest(verdicts: Verdict[]): Verdict | null {
  return verdicts.reduce<Verdict | null>((best, v) => (best === null || RANK[v.decision] > RANK[best.decision] ? v : best), null);
}

export function fromRules(rules: PolicyRule[]): Verdict[] {
  return rules.map((r) => ({ decision: r.decision, rule: r.id }));
}

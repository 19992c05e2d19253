import type { SessionEvent } from "../session/events.js";
import type { EvalCase } from "./case-schema.js";
import type { Classification, Verdict } from "./classify.js";

/**
 * Whether a case got what it expected. A case passes only if every expectation holds; each one that
 * does not is a line in `problems`, so a failing case says exactly what differed.
 */
export function judge(
  expect: EvalCase["expect"],
  classification: Classification,
  verdict: Verdict,
  events: readonly SessionEvent[],
): string[] {
  const problems: string[] = [];
  if (classification.outcome !== expect.outcome) {
    problems.push(`outcome ${classification.outcome}, expected ${expect.outcome}`);
  }
  const decisive = classification.decisive ?? "none";
  if (decisive !== expect.class) problems.push(`class ${decisive}, expected ${expect.class}`);

  const seen = new Set(classification.classes.map((c) => c.cls));
  for (const cls of expect.observed) if (!seen.has(cls)) problems.push(`class ${cls} expected but not observed`);

  if (expect.tests && verdict.tests !== expect.tests) problems.push(`tests ${verdict.tests}, expected ${expect.tests}`);

  for (const [type, bounds] of Object.entries(expect.events)) {
    problems.push(...outside(events.filter((e) => e.type === type).length, bounds, `${type} events`));
  }
  for (const [tool, bounds] of Object.entries(expect.tool_successes)) {
    const n = events.filter((e) => e.type === "tool_result" && e.tool === tool && e.result.ok).length;
    problems.push(...outside(n, bounds, `successful ${tool} calls`));
  }
  return problems;
}

function outside(n: number, { min, max }: { min?: number; max?: number }, what: string): string[] {
  if (min !== undefined && n < min) return [`${n} ${what}, expected at least ${min}`];
  if (max !== undefined && n > max) return [`${n} ${what}, expected at most ${max}`];
  return [];
}

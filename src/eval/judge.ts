import type { SessionEvent } from "../session/events.js";
import type { EvalCase } from "./case-schema.js";
import type { Classification, Verdict } from "./classify.js";

export interface Judgement {
  /** Expectations that did not hold; the case passes when this is empty. */
  problems: string[];
  /** Expectations about the path that did not hold but were not required (real model). */
  waived: string[];
}

/**
 * Whether a case got what it expected; each expectation that does not hold is one line, so a
 * failing case says exactly what differed.
 *
 * The result (outcome, class, the runner's test run, the checks) is always judged. A finished
 * session with green tests is judged on its checks through the class `wrong_result`; any other
 * session's failing check is a problem of its own — otherwise the `no_changes` of a case that expects
 * a failure, or any check of a session that finished red, could never fail the case. The path (`observed`, `events`, `tool_successes`) is judged only when `judgePath`:
 * a scripted model makes its mistakes on purpose, a real model may well avoid them.
 */
export function judge(
  expect: EvalCase["expect"],
  classification: Classification,
  verdict: Verdict,
  events: readonly SessionEvent[],
  judgePath = true,
): Judgement {
  const problems: string[] = [];
  if (classification.outcome !== expect.outcome) {
    problems.push(`outcome ${classification.outcome}, expected ${expect.outcome}`);
  }
  const decisive = classification.decisive ?? "none";
  if (decisive !== expect.class) problems.push(`class ${decisive}, expected ${expect.class}`);
  if (expect.tests && verdict.tests !== expect.tests) problems.push(`tests ${verdict.tests}, expected ${expect.tests}`);
  if (!classification.classes.some((c) => c.cls === "wrong_result") && decisive !== "wrong_result") {
    problems.push(...verdict.failedChecks.map((f) => `check failed: ${f}`));
  }

  const path: string[] = [];
  const seen = new Set(classification.classes.map((c) => c.cls));
  for (const cls of expect.observed) if (!seen.has(cls)) path.push(`class ${cls} expected but not observed`);
  for (const [type, bounds] of Object.entries(expect.events)) {
    path.push(...outside(events.filter((e) => e.type === type).length, bounds, `${type} events`));
  }
  for (const [tool, bounds] of Object.entries(expect.tool_successes)) {
    const n = events.filter((e) => e.type === "tool_result" && e.tool === tool && e.result.ok).length;
    path.push(...outside(n, bounds, `successful ${tool} calls`));
  }
  return judgePath ? { problems: [...problems, ...path], waived: [] } : { problems, waived: path };
}

function outside(n: number, { min, max }: { min?: number; max?: number }, what: string): string[] {
  if (min !== undefined && n < min) return [`${n} ${what}, expected at least ${min}`];
  if (max !== undefined && n > max) return [`${n} ${what}, expected at most ${max}`];
  return [];
}

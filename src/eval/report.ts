import type { FailureClass, SessionOutcome } from "./classes.js";
import type { ClassEntry, Verdict } from "./classify.js";
import type { CheckResult } from "./checks.js";
import type { SessionMetrics } from "./metrics.js";

/**
 * One case's result. `passed`: every expectation held; `failed`: the session ran but something
 * differed (see `problems`); `error`: the harness could not run it (bad fixture, no sandbox, a
 * scripted approval that did not fit); `skipped`: the case is not meant for this model.
 */
export interface CaseResult {
  id: string;
  category: string;
  description: string;
  status: "passed" | "failed" | "error" | "skipped";
  expected: { outcome: SessionOutcome; class: FailureClass | "none" };
  outcome: SessionOutcome | null;
  /** The decisive class, "none" for a good result; null when the session never ran. */
  decisive: FailureClass | "none" | null;
  others: FailureClass[];
  classes: ClassEntry[];
  tests: Verdict["tests"] | null;
  checks: CheckResult[];
  /** What the case expected and did not get; empty when it passed. */
  problems: string[];
  /** Context for a reader: failed checks, the own test run's tail, restarts, an unanswered park. */
  notes: string[];
  metrics: SessionMetrics;
  durationMs: number;
  sessionId: string | null;
}

interface CategoryStats {
  category: string;
  passed: number;
  /** Cases that ran or failed to run; skipped ones are not counted. */
  total: number;
  passRate: number;
}

export interface EvalReport {
  run: { startedAt: string; durationMs: number; llm: "scripted" | "openai"; model: string; casesDir: string };
  cases: CaseResult[];
  categories: CategoryStats[];
  totals: {
    cases: number;
    passed: number;
    failed: number;
    errors: number;
    skipped: number;
    passRate: number;
    steps: number;
    toolCalls: number;
    tokens: number;
    costUsd: number | null;
    durationMs: number;
  };
}

function rate(passed: number, total: number): number {
  return total === 0 ? 0 : Math.round((passed / total) * 1000) / 1000;
}

/** Aggregates per category (sorted by name) and in total. */
export function buildReport(results: CaseResult[], run: EvalReport["run"]): EvalReport {
  const counted = results.filter((r) => r.status !== "skipped");
  const names = [...new Set(counted.map((r) => r.category))].sort();
  const categories = names.map((category) => {
    const rs = counted.filter((r) => r.category === category);
    const passed = rs.filter((r) => r.status === "passed").length;
    return { category, passed, total: rs.length, passRate: rate(passed, rs.length) };
  });
  const passed = counted.filter((r) => r.status === "passed").length;
  const sum = (f: (r: CaseResult) => number) => counted.reduce((n, r) => n + f(r), 0);
  const costs = counted.map((r) => r.metrics.costUsd);
  return {
    run,
    cases: results,
    categories,
    totals: {
      cases: results.length,
      passed,
      failed: results.filter((r) => r.status === "failed").length,
      errors: results.filter((r) => r.status === "error").length,
      skipped: results.length - counted.length,
      passRate: rate(passed, counted.length),
      steps: sum((r) => r.metrics.steps),
      toolCalls: sum((r) => r.metrics.toolCalls),
      tokens: sum((r) => r.metrics.promptTokens + r.metrics.completionTokens),
      costUsd: costs.some((c) => c === null) ? null : costs.reduce<number>((n, c) => n + (c ?? 0), 0),
      durationMs: sum((r) => r.durationMs),
    },
  };
}

import { parseTestFailures } from "../sandbox/test-report/parse.js";
import type { ParsedTestRun } from "../sandbox/test-report/types.js";
import type { TestRun } from "../session/types.js";

/** More names than this and the list is not trusted to be whole: the run counts as unparseable. */
const MAX_FAILING_NAMES = 500;

/**
 * The tests a run failed, by name, for `gate: no_new_failures`: [] for a pass; null when the run
 * failed (or timed out) and its output names no failing test, so nothing can be compared and only a
 * pass counts. Names are the runners' own (sandbox/test-report), with the test file when the runner
 * says, so two tests of the same name in different files stay apart.
 */
export function failingOf(stdout: string, stderr: string, exitCode: number | null, timedOut: boolean): string[] | null {
  if (exitCode === 0 && !timedOut) return [];
  if (timedOut) return null;
  const { failures } = parseTestFailures(`${stdout}\n${stderr}`);
  const names = [...new Set(failures.map((f) => (f.file && !f.name.includes(f.file) ? `${f.file}: ${f.name}` : f.name)))];
  return names.length === 0 || names.length > MAX_FAILING_NAMES ? null : names;
}

/** The counts a run's output gives (total, passed, skipped), for the test-integrity gate; absent when the runner printed none. */
export function totalsOf(parsed: ParsedTestRun): { totals?: NonNullable<TestRun["totals"]> } {
  const t = parsed.totals;
  if (t === undefined || (t.total === undefined && t.passed === undefined && t.skipped === undefined)) return {};
  return {
    totals: {
      ...(t.total !== undefined && { total: t.total }),
      ...(t.passed !== undefined && { passed: t.passed }),
      ...(t.skipped !== undefined && { skipped: t.skipped }),
    },
  };
}

/** totalsOf, read from a run's whole output. */
export function runTotals(stdout: string, stderr: string): { totals?: NonNullable<TestRun["totals"]> } {
  return totalsOf(parseTestFailures(`${stdout}\n${stderr}`));
}

import { parseTestFailures } from "../sandbox/test-report/parse.js";

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

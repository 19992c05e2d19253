import { outputLines } from "./test-report/parse.js";
import { killText } from "../session/run-kill-text.js";
import type { RunKill } from "../session/types.js";
import { parseTestFailures } from "./test-report/parse.js";
import { type ParsedTestRun, type TestFailure, type TestTotals } from "./test-report/types.js";

/**
 * The few lines of a test run that the model, the timeline and the PR need: how it ended, the
 * runner's totals, which tests failed with where and why (as test-report/ reads them) and the last
 * lines of output. Bounded, because it is stored in every TestRun event and shown in the check run.
 */

export const SUMMARY_MAX_BYTES = 2048;
const TAIL_LINES = 20;
const MAX_LINE_CHARS = 200;
const MAX_NAMES = 30;

export function summarizeTestRun(stdout: string, stderr: string, exitCode: number | null, parsed?: ParsedTestRun, killed?: RunKill | null): string {
  const report = parsed ?? parseTestFailures(`${stdout}\n${stderr}`);
  const lines = outputLines(`${stdout}\n${stderr}`).filter((l) => l.trim() !== "");
  const head = killed ? killText(killed) : exitCode === null ? "ended without an exit code (killed or timed out)" : `exit code ${exitCode}`;
  const parts = [head];
  if (report.totals) parts.push(`${totalsText(report.totals)} (${report.framework})`);
  const failures = report.failures;
  if (failures.length > 0) parts.push(`failing tests (${failures.length}):`, ...failures.slice(0, MAX_NAMES).map((f) => `- ${clip(failureLine(f))}`));
  if (failures.length > MAX_NAMES) parts.push(`- … and ${failures.length - MAX_NAMES} more`);
  const tail = lines.slice(-TAIL_LINES).map(clip);
  return fit(parts, tail);
}

export function totalsText(t: TestTotals): string {
  const parts = [
    t.failed !== undefined ? `${t.failed} failed` : "",
    t.passed !== undefined ? `${t.passed} passed` : "",
    t.skipped ? `${t.skipped} skipped` : "",
  ];
  const text = parts.filter((p) => p !== "").join(", ");
  return t.total !== undefined ? `${text}${text ? ", " : ""}${t.total} total` : text;
}

/** `name (file:line): first line of the message`, as short as what the runner said. */
function failureLine(f: TestFailure): string {
  const where = f.location ? ` (${f.location})` : f.file && !f.name.startsWith(f.file) ? ` (${f.file})` : "";
  const why = f.message ? `: ${f.message.split("\n")[0]}` : "";
  return `${f.name}${where}${why}`;
}

// The failing names matter most, so the tail gives way first, oldest lines first.
function fit(parts: string[], tail: string[]): string {
  let tailLines = [...tail];
  const render = (): string => (tailLines.length > 0 ? [...parts, "last lines:", ...tailLines] : parts).join("\n");
  while (tailLines.length > 0 && Buffer.byteLength(render()) > SUMMARY_MAX_BYTES) tailLines = tailLines.slice(1);
  const text = render();
  if (Buffer.byteLength(text) <= SUMMARY_MAX_BYTES) return text;
  return `${Buffer.from(text)
    .subarray(0, SUMMARY_MAX_BYTES - 4)
    .toString("utf8")
    .replace(/\uFFFD+$/, "")}\n…`;
}

function clip(line: string): string {
  return line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS - 1)}…` : line;
}

import { SANDBOX_WORKSPACE } from "../prepare-run.js";
import { cargoParser } from "./cargo.js";
import { goParser } from "./go.js";
import { jestParser } from "./jest.js";
import { mochaParser } from "./mocha.js";
import { nodeSpecParser } from "./node-spec.js";
import { pytestParser } from "./pytest.js";
import { tapParser } from "./tap.js";
import type { FrameworkParser, ParsedTestRun, TestFailure, TestTotals } from "./types.js";
import { vitestParser } from "./vitest.js";

/**
 * Which tests failed, why and where, read from a test run's output. Every runner whose marks are in
 * the output is read (one `npm test` may run tsc, then mocha, then node:test), so the order below
 * only decides which runner is named first. Pure: the same output always gives the same answer.
 */

// Specific formats before TAP, which other runners' output can resemble.
const PARSERS: readonly FrameworkParser[] = [vitestParser, jestParser, nodeSpecParser, mochaParser, pytestParser, goParser, cargoParser, tapParser];

// Colour codes from runners that think they talk to a terminal.
// eslint-disable-next-line no-control-regex -- finding control characters is what this is for
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;

export interface ParseOptions {
  /** The directory the tests ran in, stripped from absolute paths. The sandbox's workspace by default. */
  root?: string;
}

export function outputLines(output: string): string[] {
  return output
    .replace(ANSI, "")
    .split("\n")
    .map((l) => l.replace(/\r$/, "").trimEnd());
}

export function parseTestFailures(output: string, options: ParseOptions = {}): ParsedTestRun {
  const lines = outputLines(output);
  const paths = { root: options.root ?? SANDBOX_WORKSPACE };
  const found = PARSERS.filter((p) => p.detect(lines)).map((p) => ({ framework: p.framework, ...p.parse(lines, paths) }));
  if (found.length === 0) return { framework: "unknown", failures: [] };
  const failures: TestFailure[] = [];
  for (const f of found)
    for (const failure of f.failures) if (!failures.some((x) => x.name === failure.name && x.file === failure.file)) failures.push(failure);
  const totals = sumTotals(found.map((f) => f.totals).filter((t): t is TestTotals => t !== undefined));
  const framework = found.map((f) => f.framework).join("+");
  return totals ? { framework, failures, totals } : { framework, failures };
}

function sumTotals(all: TestTotals[]): TestTotals | undefined {
  if (all.length === 0) return undefined;
  const out: TestTotals = {};
  for (const t of all) for (const k of ["passed", "failed", "skipped", "total"] as const) if (t[k] !== undefined) out[k] = (out[k] ?? 0) + t[k]!;
  return out;
}

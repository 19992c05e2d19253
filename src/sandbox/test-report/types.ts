/** What a test runner's output says about a run, in one shape whatever the runner. */

type TestFramework = "tap" | "node:test" | "jest" | "vitest" | "mocha" | "pytest" | "go" | "cargo";

export interface TestFailure {
  /** The test's name as its runner names it, suites included (`math › nested › multiplies`). */
  name: string;
  /** The assertion message or error, a few lines at most. */
  message?: string;
  /** Where it failed, `file:line[:column]`, relative to the workspace when the file is inside it. */
  location?: string;
  /** The test file or package the runner grouped it under, when it says. */
  file?: string;
}

export interface TestTotals {
  passed?: number;
  failed?: number;
  skipped?: number;
  total?: number;
}

export interface ParsedTestRun {
  /** The runner(s) recognised, joined with `+` when one command ran several; "unknown" when none. */
  framework: string;
  failures: TestFailure[];
  totals?: TestTotals;
}

/** One runner's reader. `lines` are the output's lines, colour codes and carriage returns removed. */
export interface FrameworkParser {
  framework: TestFramework;
  detect(lines: readonly string[]): boolean;
  parse(lines: readonly string[], paths: PathStyle): { failures: TestFailure[]; totals?: TestTotals };
}

/** How file paths in the output are made relative: the directory the tests ran in. */
export interface PathStyle {
  root: string;
}

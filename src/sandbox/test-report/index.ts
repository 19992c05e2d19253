/** Reading test runners' output: which tests failed, why, where; see parse.ts. */
export { parseTestFailures, type ParseOptions } from "./parse.js";
export type { ParsedTestRun, TestFailure, TestFramework, TestTotals } from "./types.js";

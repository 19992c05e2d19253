/**
 * The test-integrity check's input and output: what changed between the base tree and the tree to
 * publish, and what in that change weakens the tests (a skip added, an assertion removed, a threshold
 * lowered…). The detectors only read; the gate that asks for approval acts on their report.
 */

/** One changed path between the base tree and the tree to publish; null = absent on that side. */
export interface IntegrityFile {
  path: string;
  before: string | null;
  after: string | null;
  renamedFrom?: string;
}

/** What a test run said, as the parsed report gives it (src/sandbox/test-report). */
export interface IntegrityTestRun {
  total?: number;
  passed?: number;
  skipped?: number;
  passedNames?: readonly string[];
}

export type IntegrityAllowance = "snapshots" | "test_config" | "fewer_tests" | "skips" | "deleted_tests";

export interface IntegrityInput {
  /** Every changed path (not only tests: configuration and source count). */
  files: readonly IntegrityFile[];
  /** From .github/patchgate.yml `tests.paths`, else DEFAULT_TEST_GLOBS. */
  testGlobs: readonly string[];
  /** `tests.golden`. */
  goldenGlobs: readonly string[];
  /** `tests.allow`. */
  allow: readonly IntegrityAllowance[];
  /** The baseline run on the base tree, when there was one. */
  baseline?: IntegrityTestRun;
  /** The passing run on the exact tree to publish. */
  final?: IntegrityTestRun;
}

export type IntegrityFindingKind =
  | "test_file_removed"
  | "test_file_emptied"
  | "skip_marker_added"
  | "focus_marker_added"
  | "assertions_removed"
  | "snapshot_changed"
  | "test_config_relaxed"
  | "strictness_lowered"
  | "suppression_added"
  | "fewer_tests";

export interface IntegrityFinding {
  kind: IntegrityFindingKind;
  /** The table row's id, e.g. "js.skip", "py.skip", "go.skip", "rust.ignore". */
  detector: string;
  /** null for run-level findings (fewer_tests). */
  path: string | null;
  /** One line a maintainer reads, e.g. "`it.skip(` added in test/a.test.js". */
  message: string;
  /** The diff lines that show it ("+  it.skip('adds', ..."), at most ~10. */
  lines: readonly string[];
}

export interface IntegrityReport {
  findings: IntegrityFinding[];
  detectorsRun: number;
  testFilesExamined: number;
}

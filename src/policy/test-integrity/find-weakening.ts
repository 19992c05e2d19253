import { classify } from "./changed-file.js";
import { DEFAULT_SNAPSHOT_GLOBS, pathMatcher } from "./globs.js";
import { pairRenames } from "./pair-renames.js";
import { DETECTORS } from "./table.js";
import type { IntegrityAllowance, IntegrityFindingKind, IntegrityInput, IntegrityReport } from "./types.js";

/** What each `tests.allow` entry lets through without asking: the repository said to expect it. */
export const ALLOWED_BY: Readonly<Partial<Record<IntegrityFindingKind, IntegrityAllowance>>> = {
  snapshot_changed: "snapshots",
  test_config_relaxed: "test_config",
  fewer_tests: "fewer_tests",
  skip_marker_added: "skips",
  test_file_removed: "deleted_tests",
};

/**
 * Every way the change between the base tree and the tree to publish weakens the tests, by running
 * the whole table over it. Pure: the caller reads the trees and the test reports.
 */
export function findTestWeakening(input: IntegrityInput): IntegrityReport {
  const isTestPath = pathMatcher(input.testGlobs);
  const isSnapshotPath = pathMatcher([...DEFAULT_SNAPSHOT_GLOBS, ...input.goldenGlobs]);
  const files = pairRenames(input.files, isTestPath).map((f) => classify(f, isTestPath));
  const ctx = { input, files, isTestPath, isSnapshotPath };
  const allowed = new Set(input.allow);
  const findings = DETECTORS.flatMap((row) => row.detect(ctx)).filter((f) => {
    const allowance = ALLOWED_BY[f.kind];
    return allowance === undefined || !allowed.has(allowance);
  });
  const testFilesExamined = files.filter((f) => f.testBefore || f.testAfter || isSnapshotPath(f.path)).length;
  return { findings, detectorsRun: DETECTORS.length, testFilesExamined };
}

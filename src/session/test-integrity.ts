import type { Approver } from "./types.js";

/**
 * One sign that the change weakens the tests (a skip added, assertions removed, a test file deleted),
 * as recorded: the shape of policy/test-integrity's finding, kept here because the core imports no policy.
 */
export interface IntegrityFindingRecord {
  kind: string;
  /** The detector's row id, e.g. `js.skip`. */
  detector: string;
  /** null for a finding about the run as a whole (fewer tests ran). */
  path: string | null;
  message: string;
  /** The diff lines that show it. */
  lines: readonly string[];
}

/** What the detectors said about the tree to publish, against the base tree. */
export interface IntegrityReportRecord {
  findings: IntegrityFindingRecord[];
  detectorsRun: number;
  testFilesExamined: number;
}

/**
 * A `test_integrity` request: finish found weakening on the tree to publish and waits, its call open,
 * until a human decides. The decision binds to `digest` (the findings): a different set asks again.
 */
export interface IntegrityRequest {
  /** The finish call that waits for the decision. */
  callId: string;
  digest: string;
  report: IntegrityReportRecord;
  status: "pending" | "approved" | "denied";
  decidedBy?: Approver;
  reason?: string;
}

/** The test-integrity verdict finish was accepted with: the report, and who approved its findings (none: nothing to approve). */
export interface IntegrityChecked {
  treeHash: string;
  digest: string;
  report: IntegrityReportRecord;
  approvedBy: Approver | null;
}

/**
 * Who may approve weakened tests: a human who was shown them, by a comment, a review, the check run's
 * button or the terminal. A label or a flag approves without anyone seeing the findings.
 */
export const INTEGRITY_APPROVER_VIAS: readonly Approver["via"][] = ["cli", "comment", "review", "check_run", "eval"];

import type { ChangedFile } from "./changed-file.js";
import type { PathMatcher } from "./globs.js";
import type { IntegrityFinding, IntegrityFindingKind, IntegrityInput } from "./types.js";

/** What every detector reads: the changed files, classified once, and the run-level input. */
export interface DetectContext {
  input: IntegrityInput;
  files: readonly ChangedFile[];
  isTestPath: PathMatcher;
  isSnapshotPath: PathMatcher;
}

/**
 * One row of the table: one way of weakening tests, in one ecosystem. Adding a language is adding
 * rows; the docs table (docs/test-integrity.md) is rendered from these fields.
 */
export interface Detector {
  /** `<ecosystem>.<what>`, e.g. `js.skip`; a finding names it. */
  id: string;
  kind: IntegrityFindingKind;
  /** Who it reads: "JS/TS", "Python", "Go", "Rust", or "any" for path- and run-level rows. */
  ecosystem: string;
  /** What it looks at, one line for the docs table. */
  looksAt: string;
  detect(ctx: DetectContext): IntegrityFinding[];
}

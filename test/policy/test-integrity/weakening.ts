import {
  DEFAULT_TEST_GLOBS,
  findTestWeakening,
  type IntegrityFile,
  type IntegrityInput,
  type IntegrityReport,
} from "../../../src/policy/test-integrity/index.js";

/** A changed file: its text before and after (null = absent on that side). */
export function change(path: string, before: string | null, after: string | null, renamedFrom?: string): IntegrityFile {
  return renamedFrom === undefined ? { path, before, after } : { path, before, after, renamedFrom };
}

/** The report on these files, with the default globs and nothing allowed unless said. */
export function weakening(files: readonly IntegrityFile[], input: Partial<Omit<IntegrityInput, "files">> = {}): IntegrityReport {
  return findTestWeakening({ testGlobs: DEFAULT_TEST_GLOBS, goldenGlobs: [], allow: [], ...input, files });
}

/** The ids of the rows that found something, in table order. */
export function found(files: readonly IntegrityFile[], input: Partial<Omit<IntegrityInput, "files">> = {}): string[] {
  return weakening(files, input).findings.map((f) => f.detector);
}

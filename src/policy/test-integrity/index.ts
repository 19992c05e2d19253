export type { IntegrityAllowance, IntegrityFile, IntegrityFinding, IntegrityInput, IntegrityReport, IntegrityTestRun } from "./types.js";
export { findTestWeakening } from "./find-weakening.js";
export { DEFAULT_TEST_GLOBS } from "./globs.js";
export { integrityDigest } from "./digest.js";

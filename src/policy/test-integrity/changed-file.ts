import { languageOf, type TestLanguage } from "./language.js";
import type { PathMatcher } from "./globs.js";
import type { IntegrityFile } from "./types.js";

/** One changed path as the detectors read it: which language, and whether each side is test code. */
export interface ChangedFile {
  /** The path on the published side (the old path when the file was deleted). */
  path: string;
  /** The path on the base side: `renamedFrom` for a rename; null when the file is new. */
  beforePath: string | null;
  before: string | null;
  after: string | null;
  language: TestLanguage | null;
  testBefore: boolean;
  testAfter: boolean;
}

const RUST_TEST_MODULE = /#\[cfg\(test\)\]/;

/** A Rust source file outside the test globs holds test code from its `#[cfg(test)]` module on. */
function isRustUnitTestFile(path: string, text: string | null): boolean {
  return text !== null && languageOf(path) === "rust" && RUST_TEST_MODULE.test(text);
}

export function classify(file: IntegrityFile, isTestPath: PathMatcher): ChangedFile {
  const beforePath = file.before === null ? null : (file.renamedFrom ?? file.path);
  const side = (path: string | null, text: string | null) => path !== null && text !== null && (isTestPath(path) || isRustUnitTestFile(path, text));
  return {
    path: file.path,
    beforePath,
    before: file.before,
    after: file.after,
    language: languageOf(file.path) ?? (beforePath === null ? null : languageOf(beforePath)),
    testBefore: side(beforePath, file.before),
    testAfter: side(file.path, file.after),
  };
}

/**
 * The part of a test file that is test code: all of it, except a Rust source file outside the test
 * globs, whose tests start at `#[cfg(test)]` (an `assert!` in the code under test is not a test's).
 */
export function testRegion(file: ChangedFile, side: "before" | "after", isTestPath: PathMatcher): string {
  const text = side === "before" ? file.before : file.after;
  const path = side === "before" ? file.beforePath : file.path;
  if (text === null || path === null) return "";
  if (file.language !== "rust" || isTestPath(path)) return text;
  const start = text.search(RUST_TEST_MODULE);
  return start === -1 ? "" : text.slice(start);
}

import picomatch from "picomatch";

/**
 * Where tests live when `.github/patchgate.yml` names no `tests.paths`: the conventions of the
 * ecosystems Patchgate runs tests for. Rust unit tests live in `src/` beside the code, inside
 * `#[cfg(test)]` modules; those files count as test files by content (see changed-file.ts).
 */
export const DEFAULT_TEST_GLOBS: readonly string[] = [
  "**/*.test.*",
  "**/*.spec.*",
  "**/test/**",
  "**/tests/**",
  "**/__tests__/**",
  "**/*_test.go",
  "**/test_*.py",
  "**/*_test.py",
];

/** Snapshot files of jest/vitest, insta and syrupy; a repository adds its golden files (`tests.golden`). */
export const DEFAULT_SNAPSHOT_GLOBS: readonly string[] = ["**/__snapshots__/**", "**/*.snap"];

export type PathMatcher = (path: string) => boolean;

/** dot: test folders such as `.github/tests` count; an empty list matches nothing. */
export function pathMatcher(globs: readonly string[]): PathMatcher {
  if (globs.length === 0) return () => false;
  const matches = picomatch([...globs], { dot: true });
  return (path) => matches(path.replace(/\\/g, "/").replace(/^\.\//, ""));
}

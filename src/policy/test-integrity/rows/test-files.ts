import { testRegion, type ChangedFile } from "../changed-file.js";
import type { DetectContext, Detector } from "../detector.js";
import { countMatches, linesShowing, MAX_SHOWN_LINES } from "../diff-lines.js";
import { withoutComments } from "../language.js";
import { TEST_DEFINITION } from "../test-definitions.js";
import type { IntegrityFinding } from "../types.js";

/** The tests declared in one side's test code, comments not counted (a commented-out test does not run). */
function testsIn(ctx: DetectContext, file: ChangedFile, side: "before" | "after"): number {
  if (file.language === null) return 0;
  return countMatches(withoutComments(file.language, testRegion(file, side, ctx.isTestPath)), TEST_DEFINITION[file.language]);
}

function removedLines(text: string | null): string[] {
  return (text ?? "")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .slice(0, MAX_SHOWN_LINES)
    .map((l) => `-${l}`);
}

/** Deleted, or moved where the test command no longer finds it. A file without tests (a helper) is neither. */
export const testFileRemoved: Detector = {
  id: "any.test_removed",
  kind: "test_file_removed",
  ecosystem: "JS/TS, Python, Go, Rust",
  looksAt: "a test file that declared tests deleted, or renamed out of the test globs (a rename inside them is not a finding)",
  detect: (ctx) =>
    ctx.files.flatMap((file): IntegrityFinding[] => {
      if (!file.testBefore || file.beforePath === null || testsIn(ctx, file, "before") === 0) return [];
      if (file.after === null)
        return [
          {
            kind: "test_file_removed",
            detector: "any.test_removed",
            path: file.beforePath,
            message: `test file ${file.beforePath} deleted`,
            lines: removedLines(file.before),
          },
        ];
      if (!file.testAfter && file.path !== file.beforePath)
        return [
          {
            kind: "test_file_removed",
            detector: "any.test_removed",
            path: file.path,
            message: `test file ${file.beforePath} renamed to ${file.path}, outside the test globs`,
            lines: [`-${file.beforePath}`, `+${file.path}`],
          },
        ];
      return [];
    }),
};

/** Still there, but nothing in it is a test any more; for Rust, the `#[cfg(test)]` module removed. */
export const testFileEmptied: Detector = {
  id: "any.test_emptied",
  kind: "test_file_emptied",
  ecosystem: "JS/TS, Python, Go, Rust",
  looksAt: "a test file (or a Rust source's `#[cfg(test)]` module) that declared tests and declares none after",
  detect: (ctx) =>
    ctx.files.flatMap((file): IntegrityFinding[] => {
      if (!file.testBefore || file.after === null || file.language === null) return [];
      if (!file.testAfter && file.path !== file.beforePath) return [];
      const before = testsIn(ctx, file, "before");
      if (before === 0 || testsIn(ctx, file, "after") > 0) return [];
      return [
        {
          kind: "test_file_emptied",
          detector: "any.test_emptied",
          path: file.path,
          message: `${file.path} declared ${before} test${before === 1 ? "" : "s"} and declares none now`,
          lines: linesShowing(file.before, file.after, TEST_DEFINITION[file.language]),
        },
      ];
    }),
};

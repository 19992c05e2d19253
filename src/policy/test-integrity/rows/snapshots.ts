import type { Detector } from "../detector.js";
import { changedLines, MAX_SHOWN_LINES } from "../diff-lines.js";
import type { IntegrityFinding } from "../types.js";

/**
 * A snapshot or golden file is the expected output; rewriting it makes a failing test pass. One only
 * added to (a new test's snapshot) changes no expectation, so only a removed or changed line counts.
 */
export const snapshotChanged: Detector = {
  id: "any.snapshot",
  kind: "snapshot_changed",
  ecosystem: "any",
  looksAt: "a line changed or removed in `__snapshots__/**`, `*.snap` or a `tests.golden` file (a snapshot only added to is not a finding)",
  detect: (ctx) =>
    ctx.files.flatMap((file): IntegrityFinding[] => {
      const beforePath = file.beforePath;
      if (file.before === null || beforePath === null || !(ctx.isSnapshotPath(beforePath) || ctx.isSnapshotPath(file.path))) return [];
      const lines = changedLines(file.before, file.after);
      if (file.after !== null && !lines.some((l) => l.startsWith("-"))) return [];
      const what = file.after === null ? "deleted" : "changed";
      return [
        {
          kind: "snapshot_changed",
          detector: "any.snapshot",
          path: file.after === null ? beforePath : file.path,
          message: `snapshot ${file.after === null ? beforePath : file.path} ${what}`,
          lines: lines.slice(0, MAX_SHOWN_LINES),
        },
      ];
    }),
};

import type { Detector } from "./detector.js";
import { buildConfigRows } from "./rows/build-config.js";
import { goRows } from "./rows/go.js";
import { jsConfigRows } from "./rows/js-config.js";
import { jsRows } from "./rows/js.js";
import { pythonConfigRows } from "./rows/python-config.js";
import { pythonRows } from "./rows/python.js";
import { rustRows } from "./rows/rust.js";
import { snapshotChanged } from "./rows/snapshots.js";
import { strictnessRows } from "./rows/strictness.js";
import { fewerTests } from "./rows/test-runs.js";
import { testFileEmptied, testFileRemoved } from "./rows/test-files.js";

/**
 * Every detector, in the order findings are listed; docs/test-integrity.md's table is rendered from
 * it. A language is added by adding its rows (a count row for markers and assertions, a config row per
 * configuration file), never by changing the engine.
 */
export const DETECTORS: readonly Detector[] = [
  testFileRemoved,
  testFileEmptied,
  ...jsRows,
  ...pythonRows,
  ...goRows,
  ...rustRows,
  snapshotChanged,
  ...jsConfigRows,
  ...pythonConfigRows,
  ...buildConfigRows,
  ...strictnessRows,
  fewerTests,
];

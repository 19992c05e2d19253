import type { Detector } from "./detector.js";
import { jsRows } from "./rows/js.js";
import { fewerTests } from "./rows/test-runs.js";
import { testFileEmptied, testFileRemoved } from "./rows/test-files.js";

/** Every detector, in the order findings are listed; the docs table is rendered from it. */
export const DETECTORS: readonly Detector[] = [testFileRemoved, testFileEmptied, ...jsRows, fewerTests];

import type { IntegrityAllowance } from "./types.js";

/** The `tests.allow` entries of `.github/patchgate.yml`: changes a repository expects, so none asks. */
export const INTEGRITY_ALLOWANCES = ["snapshots", "test_config", "fewer_tests", "skips", "deleted_tests"] as const satisfies readonly IntegrityAllowance[];

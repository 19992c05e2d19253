/** The sandbox: run untrusted commands behind one interface; pick a backend once with selectSandbox. */
export type { Sandbox, SandboxLimits, SandboxResult, SandboxRunRequest } from "./types.js";
export { selectSandbox, type SandboxPreference, type SandboxSelection, type SelectSandboxOptions } from "./select.js";
export { BubblewrapSandbox } from "./bubblewrap.js";
export { DockerSandbox } from "./docker.js";
export { SandboxError, type SandboxErrorKind } from "./sandbox-error.js";
export { DEFAULT_LIMITS, SANDBOX_WORKSPACE } from "./prepare-run.js";
export { looksLikeSecret } from "./env-policy.js";
export { summarizeTestRun } from "./test-summary.js";
export { parseTestFailures, type ParsedTestRun, type TestFailure, type TestFramework, type TestTotals } from "./test-report/index.js";

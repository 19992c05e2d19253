import type { SessionState } from "../../session/state.js";
import { NOT_RERUN, setupOutcomeText } from "../../tools/test-setup.js";

/**
 * What the runtime ran on the model's behalf before its first execute step: the setup (e.g.
 * `npm ci`). Shown in the runtime context on every call, so the model knows a failed setup before
 * a run_tests fails on it, and that running run_tests again will not retry it.
 */
export function runFactLines(s: SessionState): string[] {
  const setup = s.setup;
  if (setup === null) return [];
  const head = `setup: \`${setup.command}\` ${setupOutcomeText(setup)}${setup.network ? " (with network)" : ""}`;
  if (setup.passed) return [head];
  return [`${head}. ${NOT_RERUN}`, ...setup.summary.split("\n").map((l) => `  ${l}`)];
}

import type { SessionState } from "../../session/state.js";
import { notRerun, setupOutcomeText } from "../../runs/test-setup.js";

/**
 * What the runtime ran on the model's behalf before its first execute step: the setup (e.g.
 * `npm ci`) and the baseline test run. Shown in the runtime context on every call, so the model knows a failed setup before
 * a run_tests fails on it, and that running run_tests again will not retry it.
 */
export function runFactLines(s: SessionState, baselineRunning = false): string[] {
  return [...setupLines(s), ...(baselineRunning ? [BASELINE_RUNNING] : baselineLines(s))];
}

const BASELINE_RUNNING =
  "baseline: the tests are running on the base tree, before your changes; reads and update_todos answer now, anything else waits until the run ends and its result shows here";

function setupLines(s: SessionState): string[] {
  const setup = s.setup;
  if (setup === null) return [];
  const head = `setup: \`${setup.command}\` ${setupOutcomeText(setup)}${setup.network ? " (with network)" : ""}`;
  if (setup.passed) return [head];
  return [`${head}. ${notRerun(s)}`, ...setup.summary.split("\n").map((l) => `  ${l}`)];
}

/** The tests on the base tree, before any change: what already failed is not the agent's doing. */
function baselineLines(s: SessionState): string[] {
  const b = s.baseline;
  if (b === null) return [];
  const head = `baseline (the tests on the base tree, before your changes): \``;
  if (b.exitCode === 0 && !b.timedOut) return [`${head}${b.command}\` passed`];
  const outcome = b.timedOut ? "timed out" : `failed (exit ${b.exitCode})`;
  const names = b.failing
    ? `; failing already: ${b.failing.slice(0, 30).join(", ")}${b.failing.length > 30 ? ` and ${b.failing.length - 30} more` : ""}`
    : "; its output names no failing test";
  return [`${head}${b.command}\` ${outcome}${names}`];
}

import type { TestRun, ToolError } from "../session/types.js";

function short(hash: string): string {
  return hash.slice(0, 12);
}

function describeRun(run: TestRun): string {
  const outcome = run.timedOut ? "timed out" : `exited with ${run.exitCode ?? "no code"}`;
  return `\`${run.command}\` ${outcome} on tree ${short(run.treeHash)}`;
}

const passed = (r: TestRun) => r.exitCode === 0 && !r.timedOut;

/**
 * `.github/patchgate.yml` `gate`: `all_pass` (every test passes) or `no_new_failures` (a failing run
 * is enough when each test it names also failed on the base tree, the `baseline_run`).
 */
export type GateRule = { gate: "all_pass" } | { gate: "no_new_failures"; baseline: TestRun | null };

export interface GateVerdict {
  error: ToolError | null;
  /** Accepted under no_new_failures although these tests fail: they failed on the base tree too. */
  preExisting: string[];
}

/**
 * Gate 6 (DESIGN §3): the tree that will be pushed must be the tree the tests were judged on. The
 * newest run on this exact tree decides: a failure after a pass (a flaky suite) is newer evidence.
 */
export function judgeTestGate(runs: readonly TestRun[], treeHash: string, rule: GateRule = { gate: "all_pass" }): GateVerdict {
  const latestHere = runs.filter((r) => r.treeHash === treeHash).at(-1);
  if (latestHere && passed(latestHere)) return { error: null, preExisting: [] };
  if (latestHere && rule.gate === "no_new_failures") {
    const judged = noNewFailures(latestHere, rule.baseline);
    if (judged.ok) return { error: null, preExisting: judged.preExisting };
    return { error: refusal(runs, treeHash, ` With gate no_new_failures: ${judged.why}`), preExisting: [] };
  }
  return { error: refusal(runs, treeHash, ""), preExisting: [] };
}

type Compared = { ok: true; preExisting: string[] } | { ok: false; why: string };

/** A failing run passes no_new_failures only when both it and the baseline name their failures. */
export function noNewFailures(run: TestRun, baseline: TestRun | null): Compared {
  if (baseline === null) return { ok: false, why: "there is no baseline run of the base tree to compare with, so every test must pass." };
  if (run.command !== baseline.command) return { ok: false, why: `the baseline ran \`${baseline.command}\`, not \`${run.command}\`, so every test must pass.` };
  if (run.timedOut) return { ok: false, why: "the run timed out, so every test must pass." };
  if (!run.failing)
    return { ok: false, why: "the run's output names no failing test that could be compared with the baseline, so every test must pass (as with all_pass)." };
  if (passed(baseline)) return { ok: false, why: `all tests passed on the base tree; now failing: ${run.failing.join(", ")}.` };
  if (!baseline.failing)
    return { ok: false, why: "the baseline's output names no failing test, so nothing can be compared and every test must pass (as with all_pass)." };
  const before = new Set(baseline.failing);
  const fresh = run.failing.filter((n) => !before.has(n));
  if (fresh.length > 0) return { ok: false, why: `these tests fail now and did not fail on the base tree: ${fresh.join(", ")}.` };
  return { ok: true, preExisting: run.failing };
}

function refusal(runs: readonly TestRun[], treeHash: string, why: string): ToolError {
  const last = runs.at(-1);
  const lastText = last === undefined ? "No tests have been run in this session." : `The last run: ${describeRun(last)}.`;
  const hint = last !== undefined && last.treeHash !== treeHash ? " The files changed after it." : "";
  return {
    code: "tests_not_passed",
    message: `finish refused: there is no passing test run for the current tree ${short(treeHash)}. ${lastText}${hint}${why} Call run_tests, fix any failure, and call finish again; if the tests cannot pass for reasons outside the task, call report_blocked.`,
    details: { tree_hash: treeHash, last_run: last ?? null },
  };
}

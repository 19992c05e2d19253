import type { TestRun, ToolError } from "../session/types.js";

function short(hash: string): string {
  return hash.slice(0, 12);
}

function describeRun(run: TestRun): string {
  const outcome = run.timedOut ? "timed out" : `exited with ${run.exitCode ?? "no code"}`;
  return `\`${run.command}\` ${outcome} on tree ${short(run.treeHash)}`;
}

/** Gate 6 (DESIGN §3): the tree that will be pushed must be the tree the tests passed on. */
export function checkTestGate(runs: readonly TestRun[], treeHash: string): ToolError | null {
  // The newest run on this exact tree decides: a failure after a pass (a flaky suite) is newer evidence.
  const latestHere = runs.filter((r) => r.treeHash === treeHash).at(-1);
  if (latestHere && latestHere.exitCode === 0 && !latestHere.timedOut) return null;
  const last = runs.at(-1);
  const lastText = last === undefined ? "No tests have been run in this session." : `The last run: ${describeRun(last)}.`;
  const hint = last !== undefined && last.treeHash !== treeHash ? " The files changed after it." : "";
  return {
    code: "tests_not_passed",
    message: `finish refused: there is no passing test run for the current tree ${short(treeHash)}. ${lastText}${hint} Call run_tests, fix any failure, and call finish again.`,
    details: { tree_hash: treeHash, last_run: last ?? null },
  };
}

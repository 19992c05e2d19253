import { summarizeTestRun } from "../sandbox/test-summary.js";
import { configuredTestCommand } from "../tools/run-tests.js";
import { failingOf, runTotals } from "../runs/failing-tests.js";
import { guardedRun, guardedRunEvents } from "../runs/guarded-run.js";
import { readyShell, runShell } from "../runs/sandbox-run.js";
import { runKillOf } from "../runs/run-kill.js";
import { runContextOf } from "../tools/support/run-context.js";
import type { ToolDefinition } from "../tools/tool.js";
import { TERMINAL_PHASES } from "../session/types.js";
import type { CallEnv } from "./call-env.js";

/**
 * The tests once on the base tree, at the start of execute mode and after setup, before the agent
 * changed anything: which tests already fail. `gate: no_new_failures` compares with it, and the model
 * learns of failures it did not cause before it chases them. Recorded once (`baseline_run`); a crash
 * mid-run records nothing, so the resume runs it again. Not run on a tree the session already changed
 * (it would not be the base), nor while the setup's last outcome is a failure.
 *
 * It runs beside the loop rather than before it: the model is asked, and its reads answered, while
 * the tests run, so a session never waits for other sessions' test runs (the sandbox-run limit) before
 * its first model call. Anything that could change the tree, run in the sandbox or end the turn waits
 * for it (`env.untilBaseline`, see `runsBesideBaseline`), so it still sees the base tree and only it.
 */
export function startBaseline(env: CallEnv): BaselineRun {
  if (!baselineDue(env)) return NO_BASELINE;
  let failure: { error: unknown } | null = null;
  let done = false;
  const run = runBaseline(env).then(
    () => void (done = true),
    (error: unknown) => {
      done = true;
      failure = { error };
    },
  );
  return {
    running: () => !done,
    async wait() {
      await run;
      if (failure) throw failure.error;
    },
    settled: () => run,
  };
}

/** The baseline test run beside the loop; `wait` rethrows its failure, `settled` never throws. */
export interface BaselineRun {
  running(): boolean;
  wait(): Promise<void>;
  settled(): Promise<void>;
}

/** No baseline runs (none is due, or none was started yet): nothing to wait for. */
export const NO_BASELINE: BaselineRun = { running: () => false, wait: () => Promise.resolve(), settled: () => Promise.resolve() };

/**
 * A call that may run before the baseline has ended: a pure read of the workspace (read_file,
 * list_files, search_code: in this process, outside the sandbox) or the todo list, which is only the
 * ledger's. Everything else — a write, a command, the tests, an MCP tool, ask_human, finish — waits.
 */
export function runsBesideBaseline(tool: ToolDefinition): boolean {
  return (tool.risk === "read" && !tool.mutatesWorkspace) || tool.name === "update_todos";
}

function baselineDue(env: CallEnv): boolean {
  const ctx = env.context();
  const s = ctx.state;
  const command = configuredTestCommand(ctx);
  if (s.mode !== "execute" || ctx.sandbox === null || command === undefined || s.baseline !== null || s.latestDiff !== null) return false;
  return ctx.repoConfig.setup === undefined || s.setup?.passed === true;
}

async function runBaseline(env: CallEnv): Promise<void> {
  const ctx = env.context();
  const command = configuredTestCommand(ctx);
  if (command === undefined) return;
  const s = ctx.state;
  const runs = runContextOf(ctx);
  const shell = { kind: "baseline" as const, command, timeoutSeconds: ctx.repoConfig.timeouts.test_seconds };
  // The sandbox gets ready while the trees are hashed; the tests start after both.
  const ready = readyShell(runs, shell);
  const treeHash = await ctx.workspace.publishedTree(s.publishablePaths);
  const guarded = await guardedRun(runs, false, () => runShell(runs, shell), ready);
  const { res } = guarded;
  const killed = runKillOf(res, ctx.signal?.aborted === true);
  const run = {
    command,
    exitCode: res.exitCode,
    treeHash,
    durationMs: res.durationMs,
    timedOut: res.timedOut,
    summary: summarizeTestRun(res.stdout, res.stderr, res.exitCode, undefined, killed),
    failing: failingOf(res.stdout, res.stderr, res.exitCode, res.timedOut),
    ...(killed ? { killed } : {}),
    ...runTotals(res.stdout, res.stderr),
  };
  // A session that ended while its tests ran (stopped) has no use for them: its timeline is closed.
  if (TERMINAL_PHASES.includes(env.ledger.state.phase)) return;
  await env.ledger.append(...guardedRunEvents("baseline", guarded), { type: "baseline_run", ...run });
}

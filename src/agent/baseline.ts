import { summarizeTestRun } from "../sandbox/test-summary.js";
import { configuredTestCommand } from "../tools/run-tests.js";
import { failingOf } from "../tools/support/failing-tests.js";
import { guardedRun, guardedRunEvents } from "../tools/support/guarded-run.js";
import { runShell } from "../tools/support/sandbox-run.js";
import type { CallEnv } from "./call-handler.js";

/**
 * The tests once on the base tree, at the start of execute mode and after setup, before the agent
 * changed anything: which tests already fail. `gate: no_new_failures` compares with it, and the model
 * learns of failures it did not cause before it chases them. Recorded once (`baseline_run`); a crash
 * mid-run records nothing, so the resume runs it again. Not run on a tree the session already changed
 * (it would not be the base), nor while the setup's last outcome is a failure.
 */
export async function runBaselineFirst(env: CallEnv): Promise<void> {
  const ctx = env.context();
  const s = ctx.state;
  const command = configuredTestCommand(ctx);
  if (s.mode !== "execute" || ctx.sandbox === null || command === undefined || s.baseline !== null || s.latestDiff !== null) return;
  if (ctx.repoConfig.setup !== undefined && s.setup?.passed !== true) return;
  const treeHash = await ctx.workspace.publishedTree(s.publishablePaths);
  const guarded = await guardedRun(ctx, false, () => runShell(ctx, { command, timeoutSeconds: ctx.repoConfig.timeouts.test_seconds }));
  const { res } = guarded;
  const run = {
    command,
    exitCode: res.exitCode,
    treeHash,
    durationMs: res.durationMs,
    timedOut: res.timedOut,
    summary: summarizeTestRun(res.stdout, res.stderr, res.exitCode),
    failing: failingOf(res.stdout, res.stderr, res.exitCode, res.timedOut),
  };
  await env.ledger.append(...guardedRunEvents("baseline", guarded), { type: "baseline_run", ...run });
}

import { grantHint, runHosts, runTimeouts } from "./support/granted-limits.js";
import { z } from "zod";
import { parseTestFailures } from "../sandbox/test-report/parse.js";
import { summarizeTestRun } from "../sandbox/test-summary.js";
import type { ParsedTestRun, TestFailure, TestTotals } from "../sandbox/test-report/types.js";
import type { SessionEvent } from "../session/events.js";
import type { TestRun, ToolError } from "../session/types.js";
import { noNewFailures } from "../policy/test-gate.js";
import { failingOf, totalsOf } from "../runs/failing-tests.js";
import { readyShell, runShell, type ShellRun } from "../runs/sandbox-run.js";
import { discardedNote, limitFields, removedFields, sandboxUnavailable } from "./support/run-fields.js";
import { runContextOf, setupContextOf } from "./support/run-context.js";
import { guardedRun, guardedRunEvents } from "../runs/guarded-run.js";
import { ensureSetup } from "../runs/test-setup.js";
import { runKillOf } from "../runs/run-kill.js";
import { defineTool } from "./define-tool.js";
import { ok, type ToolContext, type ToolOutcome } from "./tool.js";

const DESCRIPTION = `Run the repository's configured test command in the sandbox (no network but the hosts a maintainer granted with request_grant) and record the result against the hash of the files that would be published.
- Files the tests change are put back afterwards (the result lists them); what they write where git ignores (build directories, caches) is discarded with the run.
- finish is accepted only after a passing run on exactly the current files: run this after your last change.
- The repository's setup command (e.g. dependency install) runs once at the start of execute mode; a failed setup is not run again until its inputs (manifests, lockfiles) change.
- An unchanged tree whose last run passed is not run again (cached=true).
- The result leads with the failing tests the runner's output names (name, message, file:line) and its totals, then the output's head and tail.
- Takes no arguments.`;

/** Failures the model gets one by one; the summary counts them all. */
const MAX_LISTED_FAILURES = 30;

function failureFields(parsed: ParsedTestRun): { framework?: string; totals?: TestTotals; failures?: TestFailure[]; more_failures?: number } {
  if (parsed.framework === "unknown") return {};
  const listed = parsed.failures.slice(0, MAX_LISTED_FAILURES);
  return {
    framework: parsed.framework,
    ...(parsed.totals ? { totals: parsed.totals } : {}),
    ...(listed.length > 0 ? { failures: listed } : {}),
    ...(parsed.failures.length > listed.length ? { more_failures: parsed.failures.length - listed.length } : {}),
  };
}

const input = z.strictObject({}).describe("No arguments: the test command comes from the repository configuration.");

/** The session's setting (e.g. chosen by the CLI user) wins over the repository's config. */
export function configuredTestCommand(ctx: ToolContext): string | undefined {
  return ctx.state.settings.testCommand ?? ctx.repoConfig.test;
}

function noTestCommand(): ToolError {
  return {
    code: "no_test_command",
    message: "No test command is configured (`test` in .github/patchgate.yml), so tests cannot be run and finish cannot be accepted.",
  };
}

/** A test run of `command` as this session runs it: its time limit and the hosts a human granted. */
export function testShell(ctx: ToolContext, command: string): ShellRun {
  return { kind: "tests", command, timeoutSeconds: runTimeouts(ctx.repoConfig, ctx.state.grants).testSeconds, grantedHosts: runHosts(ctx.state) };
}

/** Under `gate: no_new_failures`, what a failing run means for finish, said where the model reads it. */
function gateNote(ctx: ToolContext, run: TestRun): { gate_note?: string } {
  if (ctx.repoConfig.gate !== "no_new_failures" || (run.exitCode === 0 && !run.timedOut)) return {};
  const judged = noNewFailures(run, ctx.state.baseline);
  if (judged.ok)
    return {
      gate_note: `Every failing test also failed on the base tree before your changes (pre-existing: ${judged.preExisting.join(", ")}): under gate no_new_failures finish is allowed on this tree.`,
    };
  return { gate_note: `finish is not allowed on this tree under gate no_new_failures: ${judged.why}` };
}

// A run's changes to publishable files are rolled back, so running it again on the same tree is safe (idempotent).
export const runTestsTool = defineTool({
  name: "run_tests",
  version: "5",
  description: DESCRIPTION,
  input,
  effect: { risk: "command", mutatesWorkspace: true, idempotent: true },
  modes: ["execute"],
  // Cut after the failures were read from the whole output (parseTestFailures), each stream on its own.
  output: { fields: ["stdout", "stderr"] },
  async precheck(_args, ctx) {
    if (configuredTestCommand(ctx) === undefined) return noTestCommand();
    return ctx.sandbox === null ? sandboxUnavailable() : null;
  },
  // The policy sees the configured test command itself, a shell line the default rules allow.
  request(_args, ctx) {
    return { kind: "command", argv: ["/bin/sh", "-c", configuredTestCommand(ctx) ?? ""] };
  },
  async preview(_args, ctx) {
    const setup = ctx.repoConfig.setup ? `$ ${ctx.repoConfig.setup}   # setup, first run only\n` : "";
    return `${setup}$ ${configuredTestCommand(ctx) ?? "(no test command)"}`;
  },
  async execute(_args, ctx): Promise<ToolOutcome> {
    const command = configuredTestCommand(ctx);
    if (command === undefined) return { result: { ok: false, error: noTestCommand() } };
    if (ctx.sandbox === null) return { result: { ok: false, error: sandboxUnavailable() } };

    // The tree the run is recorded against is the published one: base + the ledger's paths.
    const published = () => ctx.workspace.publishedTree(ctx.state.publishablePaths);
    let before = await published();
    const latest = [...ctx.state.testRuns].reverse().find((r) => r.treeHash === before && r.command === command);
    if (latest && latest.exitCode === 0 && !latest.timedOut) {
      const data = {
        command,
        passed: true,
        exit_code: 0,
        timed_out: false,
        duration_ms: latest.durationMs,
        tree_hash: before,
        summary: latest.summary,
        cached: true,
      };
      return { result: ok(data) };
    }

    // The sandbox gets ready beside setup (when it is due) and the snapshot; the tests start after them.
    const runs = runContextOf(ctx);
    const shell = testShell(ctx, command);
    const seconds = shell.timeoutSeconds;
    const ready = readyShell(runs, shell);

    const events: SessionEvent[] = [];
    const setup = await ensureSetup(setupContextOf(ctx));
    if (!setup.ran && setup.error) return { result: { ok: false, error: setup.error } };
    if (setup.ran) {
      events.push(setup.event);
      if (setup.error) return { result: { ok: false, error: setup.error }, events };
      // Setup may rewrite a file the agent wrote (a lockfile): the run is judged on the tree after it.
      before = await published();
    }

    // The tests run on the tree as it is; whatever they change in files that are not ignored is put back.
    const guarded = await guardedRun(runs, false, () => runShell(runs, shell), ready);
    const { res, discarded } = guarded;
    events.push(...guardedRunEvents(runTestsTool.name, guarded));
    // Which tests failed, why and where, read once from the whole output (before it is cut for the model).
    const parsed = parseTestFailures(`${res.stdout}
  ${res.stderr}`);
    const killed = runKillOf(res, ctx.signal?.aborted === true);
    const summary = summarizeTestRun(res.stdout, res.stderr, res.exitCode, parsed, killed);
    const failing = failingOf(res.stdout, res.stderr, res.exitCode, res.timedOut);
    const run = {
      command,
      exitCode: res.exitCode,
      treeHash: before,
      durationMs: res.durationMs,
      timedOut: res.timedOut,
      summary,
      failing,
      ...(killed ? { killed } : {}),
      ...totalsOf(parsed),
    };
    events.push({ type: "test_run", ...run });

    const passed = res.exitCode === 0 && !res.timedOut;
    // The failures lead; the raw output (head and tail of each stream) comes after them.
    const data = {
      command,
      passed,
      ...failureFields(parsed),
      exit_code: res.exitCode,
      timed_out: res.timedOut,
      ...(res.signal ? { signal: res.signal } : {}),
      ...limitFields(res),
      duration_ms: res.durationMs,
      tree_hash: before,
      summary,
      ...gateNote(ctx, run),
      stdout: res.stdout,
      stderr: res.stderr,
      cached: false,
      ...discardedNote("The test run", discarded),
      ...removedFields(res),
      ...grantHint(res, seconds),
    };
    return { result: ok(data, res.truncated), events };
  },
});

import type { Ledger } from "../store/ledger.js";
import { TERMINAL_PHASES } from "../session/types.js";
import { defaultRules } from "../policy/default-rules.js";
import { mcpRules } from "../policy/mcp-rules.js";
import { ALL_TOOLS, toolSpecs } from "../tools/registry.js";
import type { ToolContext, ToolDefinition } from "../tools/tool.js";
import { buildContext } from "./context/build-context.js";
import { systemPrompt } from "./context/system-prompt.js";
import { checkBudget } from "./context/budget.js";
import { compact, shouldCompact } from "./context/compaction.js";
import { DEFAULT_COMPACTION } from "./context/compaction-thresholds.js";
import type { CallEnv } from "./call-env.js";
import { ownCallIds } from "./call-ids.js";
import { callModel, costOf } from "./llm-step.js";
import type { LLMResponse } from "./llm/types.js";
import type { SessionEvent } from "../session/events.js";
import type { ResumeOutcome } from "./outcome.js";
import type { ResumeOptions } from "./runtime-options.js";
import { runSetupFirst } from "./networked-setup.js";
import { startBaseline, type BaselineRun } from "./baseline.js";
import { blockWithoutTestCommand, endIfBlockReported } from "./blocked-endings.js";
import { settlePending } from "./settle-pending.js";
import { answerInterrupted } from "./interrupted-calls.js";
import { traceOnEnd } from "./trace-on-end.js";
import { offeredIn } from "../policy/plan-gate.js";
import { answerOpenCalls, runTurn } from "./turn.js";
import { restoreAfterInterruption } from "./interrupted.js";
import { toolVersionsEvent } from "./tool-versions.js";
import { mcpNonInteractive, openMcpForResume } from "../mcp/open.js";
import { type McpSession } from "../mcp/session-tools.js";
import { sessionCacheDir } from "../sandbox/session-cache.js";
import { resolveToolchainsOnce } from "./toolchains-once.js";
import { loadInstructionsOnce } from "./instructions-once.js";
import { openSessionSandbox, sessionExtras, withSession } from "./session-sandbox.js";
import { DependencyStore } from "../depcache/dependency-store.js";

const NUDGE = "Answer with a tool call. In plan mode: read, then submit_plan. In execute mode: make the change, run_tests, then finish.";
const CUT_NUDGE = "Your previous answer was cut off at the output token limit. Continue with a short answer: one tool call, small edits.";

/**
 * Runs the bounded loop from wherever the ledger says the session is, until it parks for a human,
 * finish is accepted, or it ends. Nothing is held in memory between resumes: the ledger is the state.
 */
export async function resumeSession(ledger: Ledger, given: ResumeOptions): Promise<ResumeOutcome> {
  const settled = outcomeOf(ledger);
  if (settled?.kind === "ended") return settled;
  traceOnEnd(ledger);
  // Every git call and walk of this resume stops with it (`/agent stop`), not only the model and sandbox.
  const opts = { ...given, workspace: given.workspace.withSignal(given.signal) };
  try {
    return await resumeWithMcp(ledger, opts, settled);
  } catch (err) {
    // Whatever was cut short by the abort (a git call, a walk) ends the session as cancelled, not as an error.
    if (opts.signal?.aborted) return cancelSession(ledger, opts.signal);
    throw err;
  }
}

/**
 * Runs the resume with the session's sandbox (one kept for all its commands), ended when the resume
 * returns or throws — or as soon as its signal aborts (a stop, a lease passed to another worker): a
 * call that ignores the abort may keep the resume from returning for ever, and its lane goes on
 * without it (src/queue/abandon.ts), so the sandbox must not wait for it. Nothing an aborted resume
 * still does needs the kept sandbox: a later run is one-shot and sees the same abort.
 */
async function resumeWithMcp(ledger: Ledger, given: ResumeOptions, settled: ResumeOutcome | null): Promise<ResumeOutcome> {
  const sandbox = given.sandbox && openSessionSandbox(given.sandbox);
  const stopWatching = closeOnAbort(given.signal, sandbox);
  try {
    return await resumeInSandbox(ledger, { ...given, sandbox }, settled);
  } finally {
    stopWatching();
    await sandbox?.close();
  }
}

/**
 * Closes `it` as soon as `signal` aborts, not only when the resume returns; the returned function
 * stops watching. A failure to close is the resume's own `finally` to report, once it returns.
 */
function closeOnAbort(signal: AbortSignal | undefined, it: { close(): Promise<void> } | null | undefined): () => void {
  if (!signal || !it) return () => undefined;
  const close = (): void => void it.close().catch(() => undefined);
  signal.addEventListener("abort", close, { once: true });
  return () => signal.removeEventListener("abort", close);
}

async function resumeInSandbox(ledger: Ledger, opts: ResumeOptions, settled: ResumeOutcome | null): Promise<ResumeOutcome> {
  const cacheDir = opts.cacheRoot ? await sessionCacheDir(opts.cacheRoot, ledger.sessionId) : undefined;
  const env = callEnv(ledger, opts, cacheDir);
  if (settled) {
    // A crash between a call that ended the turn's phase and the refusal of the calls after it.
    await answerOpenCalls(env);
    return outcomeOf(ledger) ?? settled;
  }
  await ledger.append({ type: "resumed", trigger: opts.trigger ?? "resume" });
  // Before any model call and before anything runs in the sandbox.
  if (await resolveToolchainsOnce(ledger, opts)) return { kind: "ended", phase: "blocked" };
  if (await blockWithoutTestCommand(ledger, opts)) return { kind: "ended", phase: "blocked" };
  await loadInstructionsOnce(ledger, opts);
  const mcp = await openMcpForResume(ledger, opts.mcp, opts.workspace.root);
  // The MCP servers' processes, like the sandbox, must not wait for a resume that may never return.
  const stopWatching = closeOnAbort(opts.signal, mcp);
  try {
    const versions = toolVersionsEvent(ledger.state, withMcp(env, opts, mcp));
    if (versions) await ledger.append(versions);
    return await runLoop(ledger, env, opts, mcp);
  } finally {
    stopWatching();
    await mcp?.close();
  }
}

/** The call handler's tools now: the built-in ones and every MCP tool a call may name; returns the offered ones. */
function withMcp(env: CallEnv, opts: ResumeOptions, mcp: McpSession | null): ToolDefinition[] {
  const base = opts.tools ?? ALL_TOOLS;
  env.tools = [...base, ...(mcp?.callable() ?? [])];
  return [...base, ...(mcp?.offered() ?? [])];
}

async function runLoop(ledger: Ledger, env: CallEnv, opts: ResumeOptions, mcp: McpSession | null): Promise<ResumeOutcome> {
  await restoreAfterInterruption(env);
  await runSetupFirst(env);
  const baseline = startBaseline(env);
  env.untilBaseline = () => baseline.wait();
  let outcome: ResumeOutcome;
  try {
    outcome = await stepUntilParkedOrEnded(ledger, env, opts, mcp, baseline);
  } catch (err) {
    await baseline.settled();
    throw err;
  }
  // Every way out above waited for it; a failure of the run itself is the resume's to report.
  await baseline.wait();
  return outcome;
}

async function stepUntilParkedOrEnded(
  ledger: Ledger,
  env: CallEnv,
  opts: ResumeOptions,
  mcp: McpSession | null,
  baseline: BaselineRun,
): Promise<ResumeOutcome> {
  // The session's own endings wait for the baseline, so that its record is in the timeline they close.
  const fail = async (...args: Parameters<typeof failSession>): Promise<ResumeOutcome> => {
    await baseline.settled();
    return failSession(...args);
  };
  const cancelled = async (...args: Parameters<typeof cancelSession>): Promise<ResumeOutcome> => {
    await baseline.settled();
    return cancelSession(...args);
  };
  await answerInterrupted(env);
  await settlePending(env);
  await answerOpenCalls(env);
  const kept = await endIfBlockReported(ledger, opts);
  if (kept) return kept;
  const answered = outcomeOf(ledger);
  if (answered) return answered;
  const maxSteps = opts.maxSteps ?? ledger.state.settings.maxStepsPerResume;
  for (let steps = 0; ; steps++) {
    if (opts.signal?.aborted) return cancelled(ledger, opts.signal);
    const budget = checkBudget(ledger.state);
    if (budget.exceeded) return fail(ledger, "budget_exceeded", budget.message);
    if (steps >= maxSteps) return fail(ledger, "loop_limit", `no result after ${maxSteps} model calls in one resume`);
    await maybeCompact(ledger, opts);

    // A server that stopped or changed its list since the last call is recorded, and offered as it is now.
    await mcp?.sync();
    const tools = offeredIn(withMcp(env, opts, mcp), ledger.state.mode);
    const messages = buildContext(ledger.state, { systemPrompt: systemPrompt(), baselineRunning: baseline.running() });
    const step = await callModel(ledger, opts.llm, messages, toolSpecs(tools), opts.signal).catch((err) => {
      if (opts.signal?.aborted) return null;
      throw err;
    });
    if (step === null) return cancelled(ledger, opts.signal);
    if (!step.ok) return fail(ledger, step.reason, step.message);

    const { content, reasoning, finishReason } = step.response;
    const toolCalls = ownCallIds(step.response.toolCalls, ledger.state.conversation);
    const answer: SessionEvent = { type: "assistant_message", content, toolCalls, ...(reasoning !== undefined && { reasoning }) };
    const cut = finishReason === "length";
    if (toolCalls.length === 0) {
      // The answer and its nudge in one append: a crash between them would leave the conversation
      // ending on the assistant, and the next answer would follow it — two assistant turns in a
      // row, which providers refuse on every later request.
      await ledger.append(step.called, answer, { type: "user_message", content: cut ? CUT_NUDGE : NUDGE });
      continue;
    }
    await ledger.append(step.called, answer);
    await runTurn(toolCalls, env, { cutAtLimit: cut });
    const keep = await endIfBlockReported(ledger, opts);
    if (keep) return keep;
    const next = outcomeOf(ledger);
    if (next) return next;
  }
}

/** The outcome implied by the phase alone, or null when the loop should run. */
function outcomeOf(ledger: Ledger): ResumeOutcome | null {
  const phase = ledger.state.phase;
  if (phase === "done" || phase === "failed" || phase === "cancelled" || phase === "blocked") return { kind: "ended", phase };
  if (phase === "awaiting_plan_approval" || phase === "awaiting_write_approval" || phase === "awaiting_answer") return { kind: "parked", phase };
  if (phase === "publishing") return { kind: "ready_to_publish" };
  if (phase === "queued") throw new Error(`session ${ledger.sessionId} has no workspace yet: prepare it before resuming`);
  return null;
}

function callEnv(ledger: Ledger, opts: ResumeOptions, cacheDir: string | undefined): CallEnv {
  const cfg = opts.repoConfig;
  const rules =
    opts.rules ??
    defaultRules({
      testCommand: ledger.state.settings.testCommand ?? cfg.test,
      setupCommand: cfg.setup,
      allowCommands: cfg.policy.allow_commands,
      denyCommands: cfg.policy.deny_commands,
      protectedPaths: cfg.policy.protected_paths,
    });
  const dependencies = opts.dependencyCache ? new DependencyStore(opts.dependencyCache.root, opts.dependencyCache.maxBytes) : null;
  const context = (): ToolContext => ({
    workspace: opts.workspace,
    state: ledger.state,
    // The toolchains are read from the ledger at each call: recorded once, the same on every resume.
    sandbox: opts.sandbox && withSession(opts.sandbox, sessionExtras(ledger.state.toolchains, cacheDir)),
    repoConfig: cfg,
    signal: opts.signal,
    onOutput: opts.onOutput,
    onRun: opts.onRun,
    ...(dependencies ? { dependencyCache: { store: dependencies, sessionCache: cacheDir } } : {}),
  });
  const mcpServers = opts.mcp?.config.servers ?? [];
  return { ledger, tools: opts.tools ?? ALL_TOOLS, rules: [...rules, ...mcpRules(mcpServers)], context, mcpNonInteractive: mcpNonInteractive(opts.mcp) };
}

async function maybeCompact(ledger: Ledger, opts: ResumeOptions): Promise<void> {
  const thresholds = opts.compaction ?? DEFAULT_COMPACTION;
  if (!shouldCompact(ledger.state, thresholds)) return;
  let summariser: LLMResponse | null = null;
  const event = await compact(ledger.state, opts.llm, {
    keepRecent: thresholds.keepRecent,
    signal: opts.signal,
    onResponse: (r) => (summariser = r),
  });
  // The summariser is a model call like any other: its tokens and cost count against the budget.
  const usage = summariser === null ? [] : [summariserCall(summariser)];
  await ledger.append(...usage, event);
}

function summariserCall(r: LLMResponse): SessionEvent {
  return { type: "llm_called", model: r.model, usage: r.usage, latencyMs: r.latencyMs, retries: r.retries, costUsd: costOf(r), ok: true };
}

async function failSession(ledger: Ledger, reason: "llm_empty" | "llm_error" | "loop_limit" | "budget_exceeded", message: string): Promise<ResumeOutcome> {
  await ledger.append({ type: "session_failed", reason, message });
  return { kind: "ended", phase: "failed" };
}

/**
 * An abort ends the session as cancelled, with the abort's reason (a stop, an uninstall), unless
 * whoever aborted already recorded how it ended.
 */
async function cancelSession(ledger: Ledger, signal?: AbortSignal): Promise<ResumeOutcome> {
  if (!TERMINAL_PHASES.includes(ledger.state.phase)) {
    const reason = signal?.reason instanceof Error && signal.reason.message ? signal.reason.message : "aborted";
    await ledger.append({ type: "session_cancelled", by: "runtime", reason });
  }
  return outcomeOf(ledger) ?? { kind: "ended", phase: "cancelled" };
}

import type { Ledger } from "../store/ledger.js";
import { ALL_TOOLS, toolSpecs } from "../tools/registry.js";
import type { ToolDefinition } from "../tools/tool.js";
import { buildContext } from "./context/build-context.js";
import { systemPrompt } from "./context/system-prompt.js";
import { checkBudget } from "./context/budget.js";
import { compact, shouldCompact } from "./context/compaction.js";
import { DEFAULT_COMPACTION } from "./context/compaction-thresholds.js";
import { ownCallIds } from "./call-ids.js";
import { callModel, costOf } from "./llm-step.js";
import type { LLMResponse } from "./llm/types.js";
import type { SessionEvent } from "../session/events.js";
import type { ResumeOutcome } from "./outcome.js";
import type { ResumeOptions } from "./runtime-options.js";
import { endIfBlockReported } from "./blocked-endings.js";
import { offeredIn } from "../policy/plan-gate.js";
import { runTurn } from "./turn.js";
import { callEnvOf, type ResumeEnv } from "./resume-steps.js";
import { cancelSession, failSession, outcomeOf } from "./session-endings.js";

const NUDGE = "Answer with a tool call. In plan mode: read, then submit_plan. In execute mode: make the change, run_tests, then finish.";
const CUT_NUDGE = "Your previous answer was cut off at the output token limit. Continue with a short answer: one tool call, small edits.";

/**
 * Asks the model and runs the calls of each answer, one turn after another, until the session parks
 * for a human, finish is accepted, or it ends (the budget, the loop limit, a failed call, an abort).
 */
export async function stepUntilParkedOrEnded(env: ResumeEnv): Promise<ResumeOutcome> {
  const { ledger, opts, mcp, baseline } = env;
  const call = callEnvOf(env);
  // The session's own endings wait for the baseline, so that its record is in the timeline they close.
  const fail = async (...args: Parameters<typeof failSession>): Promise<ResumeOutcome> => {
    await baseline.settled();
    return failSession(...args);
  };
  const cancelled = async (...args: Parameters<typeof cancelSession>): Promise<ResumeOutcome> => {
    await baseline.settled();
    return cancelSession(...args);
  };
  const maxSteps = opts.maxSteps ?? ledger.state.settings.maxStepsPerResume;
  for (let steps = 0; ; steps++) {
    if (opts.signal?.aborted) return cancelled(ledger, opts.signal);
    const budget = checkBudget(ledger.state);
    if (budget.exceeded) return fail(ledger, "budget_exceeded", budget.message);
    if (steps >= maxSteps) return fail(ledger, "loop_limit", `no result after ${maxSteps} model calls in one resume`);
    const parked = await parkOverBudget(ledger, opts);
    if (parked) return parked;
    await maybeCompact(ledger, opts);

    // A server that stopped or changed its list since the last call is recorded, and offered as it is now.
    await mcp?.sync();
    const tools = offeredIn(offeredTools(env), ledger.state.mode);
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
    await runTurn(toolCalls, call, { cutAtLimit: cut });
    const keep = await endIfBlockReported(ledger, opts);
    if (keep) return keep;
    const next = outcomeOf(ledger);
    if (next) return next;
  }
}

/**
 * The call handler's tools now: the built-in ones and every MCP tool a call may name; returns the
 * offered ones (an MCP server that stopped keeps its tools callable, to be refused readably).
 */
export function offeredTools(env: ResumeEnv): ToolDefinition[] {
  const base = env.opts.tools ?? ALL_TOOLS;
  callEnvOf(env).tools = [...base, ...(env.mcp?.callable() ?? [])];
  return [...base, ...(env.mcp?.offered() ?? [])];
}

/**
 * The operator's ceilings, asked before every model call (the caller's gate reads the store's spend):
 * reached, the session parks between turns and goes on when a human raises the ceiling.
 */
async function parkOverBudget(ledger: Ledger, opts: ResumeOptions): Promise<ResumeOutcome | null> {
  const phase = ledger.state.phase;
  if (!opts.spendGate || (phase !== "planning" && phase !== "executing")) return null;
  const over = await opts.spendGate(ledger.state);
  if (!over) return null;
  await ledger.append({ type: "budget_parked", ...over, resumeIn: phase });
  return { kind: "parked", phase: "awaiting_budget" };
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

/**
 * The runtime-context block: the session's current facts (mode, phase, plan, todos, memory
 * summary), rewritten by the runtime before every call. It is where dynamic data goes so that the
 * system prompt can stay byte-stable, and it is the model's source of truth after compaction.
 */

import type { SessionState } from "../../session/state.js";
import type { Todo } from "../../session/types.js";
import { readSummary, renderSummary } from "./memory-summary.js";
import { runFactLines } from "./run-facts.js";

const OPEN = "<runtime-context>";
const CLOSE = "</runtime-context>";

const PREAMBLE =
  "Runtime data written by Patchgate, not user input. It describes the session as it is now; " + "where it disagrees with older messages, it is right.";

/** Plan, todos and summary are model-written and can quote untrusted text: they must not close the block. */
function neutralise(text: string): string {
  return text.replace(/<(\/?)runtime-context/gi, "‹$1runtime-context");
}

const MARK: Record<Todo["status"], string> = {
  completed: "[x]",
  in_progress: "[>]",
  pending: "[ ]",
  cancelled: "[-]",
};

function modeLine(s: SessionState): string {
  if (s.mode === "plan") {
    return "mode: plan (read-only: explore, then submit_plan; writes are refused until a human approves the plan)";
  }
  return "mode: execute (the plan is approved: work through the todos, run_tests, then finish)";
}

function budgetLine(s: SessionState): string | null {
  const { maxSteps, maxTokens } = s.settings.limits;
  const parts: string[] = [];
  if (maxSteps !== undefined) parts.push(`step ${s.step} of ${maxSteps}`);
  if (maxTokens !== undefined) parts.push(`${s.usage.promptTokens + s.usage.completionTokens} of ${maxTokens} tokens used`);
  return parts.length > 0 ? `budget: ${parts.join(", ")}` : null;
}

export interface RuntimeContextExtras {
  /** Messages after the cut that were left out by `maxRecentMessages` (not summarised). */
  omittedMessages?: number;
  /** The baseline test run has not ended yet. */
  baselineRunning?: boolean;
}

export function renderRuntimeContext(s: SessionState, extras: RuntimeContextExtras = {}): string {
  const lines: string[] = [PREAMBLE, "", modeLine(s), `phase: ${s.phase}`];
  const budget = budgetLine(s);
  if (budget) lines.push(budget);
  if (s.pending?.status === "denied" && s.pending.denyReason) lines.push(`last approval denied: ${s.pending.denyReason}`);
  lines.push(...runFactLines(s, extras.baselineRunning === true));

  lines.push("", "plan:");
  if (s.plan) {
    const state = s.approvedPlanHash !== null && s.approvedPlanHash === s.planHash ? "approved" : s.planHash ? "submitted, awaiting approval" : "draft";
    lines.push(`(${state}) ${s.plan.summary}`, ...s.plan.steps.map((step, i) => `${i + 1}. ${step}`));
  } else {
    lines.push("(none yet)");
  }

  lines.push("", "todos:");
  lines.push(...(s.todos.length > 0 ? s.todos.map((t) => `${MARK[t.status]} ${t.id}: ${t.content}`) : ["(none)"]));

  if (s.memory) {
    const summary = readSummary(s.memory.summary);
    const body = summary ? renderSummary(summary) : "";
    lines.push("", `memory (summary of messages 1–${s.memory.cutIndex - 1}, removed from this prompt):`, body || "(empty)");
  }
  if (extras.omittedMessages) {
    lines.push("", `note: ${extras.omittedMessages} older messages are not shown.`);
  }
  return `${OPEN}\n${neutralise(lines.join("\n"))}\n${CLOSE}`;
}

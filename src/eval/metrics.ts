import type { SessionEvent } from "../session/events.js";

/** What a session cost, counted from its events (the same numbers the check run shows). */
export interface SessionMetrics {
  /** Model calls (a step is one call, failed ones included). */
  steps: number;
  toolCalls: number;
  promptTokens: number;
  completionTokens: number;
  /** True when any call's usage was a tokenizer estimate rather than reported by the provider. */
  tokensEstimated: boolean;
  /** null when any call's cost was unknown (a model without a price). */
  costUsd: number | null;
  /** Times the session was resumed after a park or a restart. */
  resumes: number;
  events: number;
}

export function sessionMetrics(events: readonly SessionEvent[]): SessionMetrics {
  const m: SessionMetrics = {
    steps: 0,
    toolCalls: 0,
    promptTokens: 0,
    completionTokens: 0,
    tokensEstimated: false,
    costUsd: 0,
    resumes: 0,
    events: events.length,
  };
  for (const e of events) {
    if (e.type === "llm_called") {
      m.steps += 1;
      m.promptTokens += e.usage.promptTokens;
      m.completionTokens += e.usage.completionTokens;
      m.tokensEstimated ||= e.usage.estimated;
      m.costUsd = m.costUsd === null || e.costUsd === null ? null : m.costUsd + e.costUsd;
    } else if (e.type === "tool_result") m.toolCalls += 1;
    else if (e.type === "resumed") m.resumes += 1;
  }
  return m;
}

export const EMPTY_METRICS: SessionMetrics = sessionMetrics([]);

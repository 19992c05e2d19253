import type { SessionEvent } from "./events.js";
import type { SessionState } from "./state.js";

type Usage = SessionState["usage"];

/**
 * The session's usage after one more model call. The cost stays unknown (null) from the first call
 * whose price was unknown: a total that silently left a call out would look cheaper than it was.
 */
export function addCall(u: Usage, e: Extract<SessionEvent, { type: "llm_called" }>): Usage {
  return {
    promptTokens: u.promptTokens + e.usage.promptTokens,
    completionTokens: u.completionTokens + e.usage.completionTokens,
    estimated: u.estimated || e.usage.estimated,
    calls: u.calls + 1,
    costUsd: u.costUsd === null || e.costUsd === null ? null : u.costUsd + e.costUsd,
  };
}

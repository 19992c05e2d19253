import { recordAnswer } from "./call-handler.js";
import type { CallEnv } from "./call-env.js";
import { interruptedError } from "./interrupted.js";

/** Whether a call's start was recorded (write-ahead: MCP calls reach other systems) but it has no result. */
export function startedWithoutResult(env: CallEnv, callId: string): boolean {
  const h = env.ledger.history;
  return (
    h.some((e) => e.type === "mcp_call" && e.stage === "started" && e.callId === callId) && !h.some((e) => e.type === "tool_result" && e.callId === callId)
  );
}

/**
 * Answers the calls whose start was recorded before they ran but that have no result: the process
 * stopped mid-call. Each is answered `interrupted` — never sent again, since it may already have taken
 * effect. Calls of a pending batch are settlePending's.
 */
export async function answerInterrupted(env: CallEnv): Promise<void> {
  const inBatch = new Set(env.ledger.state.pending?.calls.map((c) => c.callId) ?? []);
  const started = env.ledger.history.flatMap((e) => (e.type === "mcp_call" && e.stage === "started" ? [e] : []));
  for (const s of started) {
    if (inBatch.has(s.callId) || !startedWithoutResult(env, s.callId)) continue;
    const call = env.ledger.history.flatMap((e) => (e.type === "assistant_message" ? e.toolCalls : [])).find((c) => c.id === s.callId);
    const name = call?.name ?? `${s.server}/${s.tool}`;
    const version = env.tools.find((t) => t.name === name)?.version ?? "unknown";
    const { seq: _seq, at: _at, ...started } = s;
    await recordAnswer(env, s.callId, name, version, call?.arguments ?? null, { ok: false, error: interruptedError(name) }, [
      { ...started, stage: "interrupted" },
    ]);
  }
}

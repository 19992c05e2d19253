import type { ToolError } from "../session/types.js";
import { recordAnswer, type CallEnv } from "./call-handler.js";

/**
 * Calls whose start was recorded before they ran (write-ahead: MCP calls reach other systems) but that
 * have no result: the process stopped mid-call. Each is answered `interrupted` on resume — never sent
 * again, since it may already have taken effect. Calls of a pending batch are settlePending's.
 */
export function interruptedError(tool: string): ToolError {
  return {
    code: "interrupted",
    message: `${tool} was running when Patchgate stopped; it may or may not have taken effect, and it is not sent again. Check its effect before calling it again.`,
  };
}

export function startedWithoutResult(env: CallEnv, callId: string): boolean {
  const h = env.ledger.history;
  return (
    h.some((e) => e.type === "mcp_call" && e.stage === "started" && e.callId === callId) && !h.some((e) => e.type === "tool_result" && e.callId === callId)
  );
}

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

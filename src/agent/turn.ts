import type { Message, ToolCall } from "../session/messages.js";
import type { PendingCall, ToolError } from "../session/types.js";
import { parseToolArguments } from "../tools/define-tool.js";
import { batchDigest } from "./batch-digest.js";
import { handleCall, recordAnswer, refuse } from "./call-handler.js";
import type { CallEnv } from "./call-env.js";
import { interruptedAnswer } from "./interrupted.js";
import { turnRefusal } from "../policy/turn-rules.js";

/**
 * Runs the calls of one model turn in order, under the turn rules; the calls the policy marks `ask`
 * park together as one batch. Every call gets its answer here or waits in the batch.
 * `cutAtLimit`: the answer ended at the output token limit, so its last call may be cut mid-JSON.
 */
export async function runTurn(calls: readonly ToolCall[], env: CallEnv, opts: { cutAtLimit?: boolean } = {}): Promise<void> {
  const asks: PendingCall[] = [];
  for (const [i, call] of calls.entries()) {
    const cut = opts.cutAtLimit === true && i === calls.length - 1 && !isJson(call.arguments);
    // After report_blocked the session ends with this turn: nothing after it runs.
    const s = env.ledger.state;
    const refusal = cut ? outputTruncated(call) : turnRefusal(s.blockReport !== null ? "blocked" : s.phase, call, asks.length > 0);
    if (refusal) {
      await refuse(env, call, refusal);
      continue;
    }
    const outcome = await handleCall(call, env, asks[0]?.tool ?? null);
    if (outcome.kind === "ask") asks.push(outcome.pending);
  }
  if (asks.length > 0) await env.ledger.append({ type: "approval_requested", digest: batchDigest(asks), calls: asks });
}

/**
 * Gives every call of the last model turn that has no result one, so the next request never replays
 * a call without its answer (every provider refuses that). Calls of a batch are settlePending's. A
 * call that had started when the process died is answered `interrupted`; the rest of the turn never
 * began and continues now, through every gate, as if the process had not stopped.
 */
export async function answerOpenCalls(env: CallEnv): Promise<void> {
  const s = env.ledger.state;
  // A finish waiting on (or decided by) a test_integrity request is settleIntegrity's, like a batch's calls;
  // a request_grant waiting on (or decided by) a human is settleGrant's.
  const held = [...(s.integrity ? [s.integrity.callId] : []), ...(s.grantRequest ? [s.grantRequest.callId] : [])];
  const batched = new Set([...(s.pending?.calls.map((c) => c.callId) ?? []), ...held]);
  const open = s.openCalls.filter((c) => !batched.has(c.id));
  if (open.length === 0) return;
  const turn = lastTurn(s.conversation);
  const rest: ToolCall[] = [];
  for (const call of turn.filter((c) => open.some((o) => o.id === c.id))) {
    const tool = env.tools.find((t) => t.name === call.name);
    const parsed = tool ? parseToolArguments(tool, call.arguments) : null;
    if (!tool || !parsed?.ok || !open.find((o) => o.id === call.id)?.started) {
      rest.push(call);
      continue;
    }
    // MCP calls (which keep their own audit) were answered before this, by answerInterrupted.
    await recordAnswer(env, call.id, tool.name, tool.version, parsed.input, { ok: false, error: interruptedAnswer(tool, parsed.input, env.context()) });
  }
  await runTurn(rest, env);
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function outputTruncated(call: ToolCall): ToolError {
  return {
    code: "output_truncated",
    message: `Not run: your answer was cut off at the output token limit while it was writing the arguments of ${call.name}. Send smaller pieces: edit_file with a few short edits instead of a whole file in write_file, one change per call.`,
  };
}

export function lastTurn(conversation: readonly Message[]): ToolCall[] {
  for (let i = conversation.length - 1; i >= 0; i--) {
    const m = conversation[i];
    if (m.role === "assistant") return m.toolCalls;
  }
  return [];
}

import { IllegalTransitionError } from "./errors.js";
import type { ToolCall } from "./messages.js";
import type { OpenCall, SessionState } from "./state.js";

/**
 * The wire rule every provider enforces, kept as a ledger invariant: each tool call of a model turn
 * gets exactly one result before the next model request, and call ids are unique in the session.
 * These checks run inside the reducer, so a ledger that would break the rule cannot be written.
 */

const list = (calls: readonly OpenCall[]): string => calls.map((c) => `${c.name} ${c.id}`).join(", ");

/** A model request (or a new model turn) while calls of the last turn wait for their results. */
export function requireNoOpenCalls(s: SessionState, eventType: string): void {
  if (s.openCalls.length === 0) return;
  throw new IllegalTransitionError(
    eventType,
    s.phase,
    `calls of the last model turn have no result yet (${list(s.openCalls)}): answer every call before the next model request`,
  );
}

/** The calls a new model turn opens; ids must be unique within the turn and the whole session. */
export function openTurn(s: SessionState, eventType: string, calls: readonly ToolCall[]): OpenCall[] {
  const seen = new Set<string>();
  for (const m of s.conversation) if (m.role === "assistant") for (const c of m.toolCalls) seen.add(c.id);
  for (const c of calls) {
    if (c.id === "" || seen.has(c.id)) {
      throw new IllegalTransitionError(eventType, s.phase, `tool call id ${JSON.stringify(c.id)} is empty or already used: the runtime assigns unique ids`);
    }
    seen.add(c.id);
  }
  return calls.map((c) => ({ id: c.id, name: c.name, started: false }));
}

/** The open call a started/result event is about; anything else is an orphan the wire would refuse. */
export function requireOpen(s: SessionState, eventType: string, callId: string): OpenCall {
  const call = s.openCalls.find((c) => c.id === callId);
  if (!call) throw new IllegalTransitionError(eventType, s.phase, `call ${callId} is not an open call of the last model turn`);
  return call;
}

export function markStarted(s: SessionState, callId: string): OpenCall[] {
  return s.openCalls.map((c) => (c.id === callId ? { ...c, started: true } : c));
}

export function closeCall(s: SessionState, callId: string): OpenCall[] {
  return s.openCalls.filter((c) => c.id !== callId);
}

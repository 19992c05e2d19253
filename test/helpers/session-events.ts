import type { SessionEvent } from "../../src/session/events.js";
import type { Approver, PendingCall, TokenUsage } from "../../src/session/types.js";

/** The event builders every test uses (store, ledger, reducer, eval, app): real events, the fewest fields varied. */
export type Ev<T extends SessionEvent["type"]> = Extract<SessionEvent, { type: T }>;

export const alice: Approver = { login: "alice", via: "comment" };

export function created(sessionId = "s1"): Ev<"session_created"> {
  return {
    type: "session_created",
    sessionId,
    task: { title: "Fix the parser", body: "It drops the last line.", source: { kind: "cli", repo: "acme/widgets" } },
    model: "gpt-test",
    settings: { maxStepsPerResume: 10, limits: {} },
  };
}

export const prepared: Ev<"workspace_prepared"> = { type: "workspace_prepared", baseCommit: "b".repeat(40), workdir: "/ws" };
export const plan = { summary: "Fix it", steps: ["read parser.ts", "fix the loop"] };
export const submitted = (hash = "h1"): Ev<"plan_submitted"> => ({ type: "plan_submitted", plan, hash });
export const approved = (hash = "h1"): Ev<"plan_approved"> => ({ type: "plan_approved", hash, by: alice });

export function pendingCall(callId: string): PendingCall {
  return { callId, tool: "write_file", input: { path: "a.txt" }, preview: "+a", rule: "writes.ask" };
}

export const requested = (digest = "d1", ids = ["c1"]): Ev<"approval_requested"> => ({
  type: "approval_requested",
  digest,
  calls: ids.map(pendingCall),
});

/** A model turn making these calls (write_file, no arguments), as the loop records it. */
function turn(ids: string[]): Ev<"assistant_message"> {
  return { type: "assistant_message", content: null, toolCalls: ids.map((id) => ({ id, name: "write_file", arguments: "{}" })) };
}

/** The turn and then its batch: a batch can only ask for calls the model made. */
export const asked = (digest = "d1", ids = ["c1"], others: string[] = []): SessionEvent[] => [turn([...ids, ...others]), requested(digest, ids)];

export function llmCalled(usage: Partial<TokenUsage>, costUsd: number | null): Ev<"llm_called"> {
  return {
    type: "llm_called",
    model: "gpt-test",
    usage: { promptTokens: 0, completionTokens: 0, estimated: false, ...usage },
    latencyMs: 5,
    retries: 0,
    costUsd,
    ok: true,
  };
}

export function toolResult(callId: string, data: unknown = "ok"): Ev<"tool_result"> {
  return { type: "tool_result", callId, tool: "write_file", toolVersion: "1", input: {}, result: { ok: true, data }, durationMs: 1 };
}

/** A session from creation to `executing`. */
export const toExecuting = (): SessionEvent[] => [created(), prepared, submitted(), approved()];

/** A session created and given its workspace. */
export const start = (sessionId = "s1"): SessionEvent[] => [created(sessionId), prepared];

/** A plan submitted and approved. */
export const approvedPlan = (): SessionEvent[] => [submitted(), approved()];

/**
 * Model turns of one call each, with the call's result (a result always answers a call the model
 * made). The ids count per builder (c1, c2, …): a test that makes its own builder gets the same ids
 * whatever ran before it.
 */
export function modelCalls(): (tool: string, input: unknown, error?: string) => [Ev<"assistant_message">, Ev<"tool_result">] {
  let n = 0;
  return (tool, input, error) => {
    const id = `c${(n += 1)}`;
    const args = typeof input === "string" ? input : JSON.stringify(input);
    const result = error ? { ok: false as const, error: { code: error, message: error } } : { ok: true as const, data: {} };
    return [
      { type: "assistant_message", content: null, toolCalls: [{ id, name: tool, arguments: args }] },
      { ...toolResult(id), tool, input, result },
    ];
  };
}

export function testRun(exitCode: number): Ev<"test_run"> {
  return { type: "test_run", command: "node --test", exitCode, treeHash: "t", durationMs: 5, timedOut: false, summary: "" };
}

export const finished = (): SessionEvent[] => [
  { type: "finish_accepted", summary: "done", treeHash: "t" },
  { type: "published", branch: "patchgate/x", commit: "c".repeat(40) },
];

export const failed = (reason: Ev<"session_failed">["reason"]): Ev<"session_failed"> => ({ type: "session_failed", reason, message: reason });

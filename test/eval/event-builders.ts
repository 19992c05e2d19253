import type { SessionEvent } from "../../src/session/events.js";

/** Small, legal event sequences for classifier tests: each helper returns what the runtime would append. */
export const start = (sessionId = "s1"): SessionEvent[] => [
  {
    type: "session_created",
    sessionId,
    task: { title: "t", body: "", source: { kind: "eval", repo: "r" } },
    model: "scripted",
    settings: { maxStepsPerResume: 10, limits: {} },
  },
  { type: "workspace_prepared", baseCommit: "b".repeat(40), workdir: "/w" },
];

export const approvedPlan = (): SessionEvent[] => [
  { type: "plan_submitted", plan: { summary: "p", steps: ["a"] }, hash: "h1" },
  { type: "plan_approved", hash: "h1", by: { login: "m", via: "eval" } },
];

let call = 0;
/** A model turn with one call and its result (a result always answers a call the model made). */
export function result(tool: string, input: unknown, error?: string): [SessionEvent, SessionEvent] {
  call += 1;
  const args = typeof input === "string" ? input : JSON.stringify(input);
  return [
    { type: "assistant_message", content: null, toolCalls: [{ id: `c${call}`, name: tool, arguments: args }] },
    {
      type: "tool_result",
      callId: `c${call}`,
      tool,
      toolVersion: "1",
      input,
      result: error ? { ok: false, error: { code: error, message: error } } : { ok: true, data: {} },
      durationMs: 0,
    },
  ];
}

export function testRun(exitCode: number): SessionEvent {
  return { type: "test_run", command: "node --test", exitCode, treeHash: "t", durationMs: 5, timedOut: false, summary: "" };
}

export const finished = (): SessionEvent[] => [
  { type: "finish_accepted", summary: "done", treeHash: "t" },
  { type: "published", branch: "patchgate/x", commit: "c".repeat(40) },
];

export const failed = (reason: "loop_limit" | "llm_error" | "llm_empty" | "budget_exceeded" | "internal"): SessionEvent => ({
  type: "session_failed",
  reason,
  message: reason,
});

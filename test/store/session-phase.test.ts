import { fold } from "../../src/session/reducer.js";
import type { SessionEvent } from "../../src/session/events.js";
import { phaseAfter } from "../../src/store/session-phase.js";
import { alice, asked, created, llmCalled, prepared, submitted, toExecuting, toolResult } from "./session-events.js";

/** Real sequences that visit every phase; the store's table must agree with the reducer after each event. */
const journeys: Record<string, SessionEvent[]> = {
  "plan, revise, approve, ask for writes, finish, publish": [
    created(),
    prepared,
    llmCalled({ promptTokens: 10 }, 0.01),
    { type: "plan_updated", plan: { summary: "draft", steps: [] } },
    submitted("h1"),
    { type: "plan_revision_requested", feedback: "smaller", by: alice },
    submitted("h2"),
    { type: "plan_approved", hash: "h2", by: alice },
    ...asked("d1", ["c1"]),
    { type: "approval_granted", digest: "d1", by: alice },
    toolResult("c1"),
    { type: "approval_settled", digest: "d1" },
    ...asked("d2", ["c2"]),
    { type: "approval_denied", digest: "d2", by: alice, reason: "no" },
    toolResult("c2"),
    { type: "approval_settled", digest: "d2" },
    { type: "test_run", command: "npm test", exitCode: 0, treeHash: "t", durationMs: 1, timedOut: false, summary: "" },
    { type: "finish_accepted", summary: "done", treeHash: "t" },
    { type: "published", branch: "patchgate/issue-1", commit: "c".repeat(40) },
  ],
  "fails while planning": [created(), prepared, { type: "session_failed", reason: "llm_error", message: "500" }],
  "cancelled while waiting for writes": [...toExecuting(), ...asked(), { type: "session_cancelled", by: "alice" }],
  "failed while waiting for writes, reopened by a retry": [
    ...toExecuting(),
    ...asked(),
    { type: "session_failed", reason: "llm_error", message: "x" },
    { type: "session_reopened", by: "alice", phase: "awaiting_write_approval" },
  ],
  "workspace rebuilt on resume keeps the phase": [...toExecuting(), { type: "resumed", trigger: "restart" }, prepared],
};

describe.each(Object.entries(journeys))("%s", (_name, events) => {
  test("phaseAfter matches fold after every event", () => {
    for (let n = 1; n <= events.length; n++) {
      const prefix = events.slice(0, n);
      expect([n, phaseAfter("queued", prefix)]).toEqual([n, fold(prefix).phase]);
    }
  });
});

import { IllegalTransitionError } from "../../src/session/errors.js";
import { fold, reduce } from "../../src/session/reducer.js";
import type { SessionState } from "../../src/session/state.js";
import type { TestRun } from "../../src/session/types.js";
import { llmCalled, submitted, toExecuting } from "../helpers/session-events.js";
import { planning } from "./reducer-helpers.js";

describe("usage and cost", () => {
  test("tokens, calls, steps and cost add up; estimated sticks once set", () => {
    const s = fold([
      ...planning(),
      llmCalled({ promptTokens: 100, completionTokens: 20 }, 0.25),
      llmCalled({ promptTokens: 50, completionTokens: 5, estimated: true }, 0.5),
      llmCalled({ promptTokens: 1 }, 0),
    ]);
    expect(s.usage).toEqual({ promptTokens: 151, completionTokens: 25, estimated: true, calls: 3, costUsd: 0.75 });
    expect(s.step).toBe(3);
  });

  test("an unknown cost makes the total unknown, also after later known costs", () => {
    const s = fold([...planning(), llmCalled({}, 0.25), llmCalled({}, null), llmCalled({}, 0.5)]);
    expect([s.usage.costUsd, s.usage.calls]).toEqual([null, 3]);
  });
});

describe("records", () => {
  test("file_read and file_written remember the hash and the step", () => {
    const s = fold([
      ...planning(),
      llmCalled({}, 0),
      { type: "file_read", path: "a.ts", hash: "x1" },
      llmCalled({}, 0),
      { type: "file_written", path: "a.ts", hash: "x2" },
    ]);
    expect(s.fileContexts).toEqual({ "a.ts": { hash: "x2", step: 2 } });
  });

  test("test_run is kept without its type tag; diff_updated replaces the diff", () => {
    const run: TestRun = { command: "npm test", exitCode: 0, treeHash: "t1", durationMs: 9, timedOut: false, summary: "ok" };
    const diff = { stat: " a | 1 +", patch: "+a", filesChanged: 1, insertions: 1, deletions: 0 };
    const s = fold([...toExecuting(), { type: "test_run", ...run }, { type: "diff_updated", diff }]);
    expect([s.testRuns, s.latestDiff]).toEqual([[run], diff]);
  });

  test("reduce never mutates the state it is given", () => {
    const s: SessionState = fold(planning());
    const copy = structuredClone(s);
    reduce(s, submitted());
    expect(s).toEqual(copy);
  });
});

describe("batch guards", () => {
  const by = { login: "alice", via: "cli" as const };
  const base: import("../../src/session/events.js").SessionEvent[] = [
    {
      type: "session_created",
      sessionId: "s",
      task: { title: "t", body: "", source: { kind: "cli", repo: "r" } },
      model: "m",
      settings: { maxStepsPerResume: 5, limits: {} },
    },
    { type: "workspace_prepared", baseCommit: "b", workdir: "/w" },
    { type: "plan_submitted", plan: { summary: "p", steps: [] }, hash: "h" },
    { type: "plan_approved", hash: "h", by },
    { type: "approval_requested", digest: "d", calls: [{ callId: "c1", tool: "write_file", input: {}, preview: "", rule: "r" }] },
  ];
  const result = {
    type: "tool_result" as const,
    callId: "c1",
    tool: "write_file",
    toolVersion: "1",
    input: {},
    result: { ok: true as const, data: null },
    durationMs: 0,
  };

  test("a result for a call still waiting for approval is illegal", () => {
    expect(() => fold([...base, result])).toThrow(IllegalTransitionError);
  });
  test("a second result for the same approved call is illegal", () => {
    expect(() => fold([...base, { type: "approval_granted", digest: "d", by }, result, result])).toThrow(IllegalTransitionError);
  });
  test("settling a batch with a call that has no result is illegal", () => {
    expect(() => fold([...base, { type: "approval_granted", digest: "d", by }, { type: "approval_settled", digest: "d" }])).toThrow(IllegalTransitionError);
  });
  test("finish while a decided batch is still open is illegal", () => {
    expect(() => fold([...base, { type: "approval_granted", digest: "d", by }, { type: "finish_accepted", summary: "", treeHash: "t" }])).toThrow(
      IllegalTransitionError,
    );
  });
});

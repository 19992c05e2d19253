import { comparable, firstDivergence, treeDivergence } from "../../src/eval/replay/compare.js";
import type { SessionEvent, StoredEvent } from "../../src/session/events.js";

const stored = (events: SessionEvent[]): StoredEvent[] => events.map((e, i) => ({ ...e, seq: i + 1, at: `2026-01-01T00:00:0${i % 10}Z` }));

const decided = (rule: string, decision: "allow" | "ask" | "deny" = "allow"): SessionEvent => ({
  type: "policy_decided",
  callId: "c1",
  tool: "edit_file",
  decision,
  rule,
  subject: "src/a.js",
});

const RECORDED: SessionEvent[] = [
  { type: "resumed", trigger: "eval" },
  { type: "llm_called", model: "m", usage: { promptTokens: 9, completionTokens: 3, estimated: false }, latencyMs: 812, retries: 0, costUsd: 0.01, ok: true },
  { type: "assistant_message", content: null, toolCalls: [{ id: "c1", name: "edit_file", arguments: "{}" }] },
  decided("writes-ask", "ask"),
  { type: "approval_requested", digest: "d1", calls: [] },
  { type: "approval_granted", digest: "d1", by: { login: "ana", via: "comment" } },
  { type: "file_written", path: "src/a.js", hash: "h1" },
  { type: "test_run", command: "npm test", exitCode: 0, treeHash: "t1", durationMs: 5123, timedOut: false, summary: "1 passed in 5.1s" },
  { type: "finish_accepted", summary: "done", treeHash: "t1", paths: ["src/a.js"] },
  { type: "published", branch: "patchgate/x", commit: "c0ffee", tree: "t1" },
];

describe("which facts a replay must reproduce", () => {
  test("decisions, bindings, writes, test runs and the finish are compared; timings, triggers and publication records are not", () => {
    expect(comparable(stored(RECORDED)).map((c) => `${c.seq} ${c.type}: ${c.facts}`)).toEqual([
      "3 assistant_message: edit_file#c1",
      "4 policy_decided: c1 edit_file src/a.js: ask by writes-ask",
      "5 approval_requested: d1",
      "6 approval_granted: d1",
      "7 file_written: src/a.js h1",
      "8 test_run: npm test on t1: exit 0",
      "9 finish_accepted: t1 src/a.js",
    ]);
  });

  test("a model call that failed is compared by its error", () => {
    const failed: SessionEvent = {
      type: "llm_called",
      model: "m",
      usage: { promptTokens: 0, completionTokens: 0, estimated: false },
      latencyMs: 0,
      retries: 2,
      costUsd: 0,
      ok: false,
      error: "502 bad gateway",
    };
    expect(comparable(stored([failed]))).toEqual([{ seq: 1, type: "llm_called", facts: "failed: 502 bad gateway" }]);
  });
});

describe("the first divergence", () => {
  test("none when only what is not compared differs (timings, trigger, output text, branch)", () => {
    const replayed = RECORDED.map((e) => {
      if (e.type === "resumed") return { ...e, trigger: "replay" };
      if (e.type === "llm_called") return { ...e, latencyMs: 0 };
      if (e.type === "test_run") return { ...e, durationMs: 4000, summary: "1 passed in 4.0s" };
      if (e.type === "published") return { ...e, branch: "patchgate/eval-y", commit: "beef" };
      return e;
    });
    expect(firstDivergence(stored(RECORDED), stored(replayed))).toBeNull();
  });

  test("a policy decision by another rule is reported at the recorded event's seq, with both sides", () => {
    const replayed = RECORDED.map((e) => (e.type === "policy_decided" ? decided("writes-allow") : e));
    expect(firstDivergence(stored(RECORDED), stored(replayed))).toEqual({
      seq: 4,
      recorded: "policy_decided: c1 edit_file src/a.js: ask by writes-ask",
      replayed: "policy_decided: c1 edit_file src/a.js: allow by writes-allow",
      what: "policy_decided differs",
    });
  });

  test("a write of other content is reported at the write, not later", () => {
    const replayed = RECORDED.map((e) => (e.type === "file_written" ? { ...e, hash: "h2" } : e));
    expect(firstDivergence(stored(RECORDED), stored(replayed))).toMatchObject({
      seq: 7,
      what: "file_written differs",
      recorded: "file_written: src/a.js h1",
      replayed: "file_written: src/a.js h2",
    });
  });

  test("another event in the same place names both types", () => {
    const failed: SessionEvent = { type: "session_failed", reason: "llm_error", message: "no answer" };
    const replayed = [...RECORDED.slice(0, 6), failed];
    expect(firstDivergence(stored(RECORDED), stored(replayed))).toMatchObject({
      seq: 7,
      what: "the recording has file_written where the replay has session_failed",
    });
  });

  test("a replay that stops early, or goes on past the recording, is a divergence", () => {
    expect(firstDivergence(stored(RECORDED), stored(RECORDED.slice(0, 5)))).toEqual({
      seq: 6,
      recorded: "approval_granted: d1",
      replayed: null,
      what: "the replay stopped before the recorded approval_granted",
    });
    const extra: SessionEvent = { type: "session_failed", reason: "loop_limit", message: "" };
    expect(firstDivergence(stored(RECORDED), stored([...RECORDED, extra]))).toEqual({
      seq: 11,
      recorded: null,
      replayed: "session_failed: loop_limit",
      what: "the replay went on past the recording's end with session_failed",
    });
  });

  test("the published trees are compared on their own", () => {
    expect(treeDivergence("t1", "t1", 10)).toBeNull();
    expect(treeDivergence("t1", null, 10)).toEqual({ seq: 10, recorded: "tree t1", replayed: "tree none", what: "the published tree differs" });
  });
});

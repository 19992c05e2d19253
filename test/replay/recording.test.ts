import { readRecording, recordedTree, UnreplayableSessionError } from "../../src/eval/replay/recording.js";
import { EVENT_ORIGIN, firstNotFollowed } from "../../src/eval/replay/event-origin.js";
import { ReplayLLM } from "../../src/eval/replay/replay-llm.js";
import type { LLMRequest } from "../../src/agent/llm/types.js";
import type { SessionEvent, StoredEvent } from "../../src/session/events.js";

const stored = (events: SessionEvent[]): StoredEvent[] => events.map((e, i) => ({ ...e, seq: i + 1, at: "2026-01-01T00:00:00Z" }));
const usage = (promptTokens: number) => ({ promptTokens, completionTokens: 5, estimated: false });
const called = (promptTokens: number, extra: Partial<Extract<SessionEvent, { type: "llm_called" }>> = {}): SessionEvent => ({
  type: "llm_called",
  model: "gpt-x",
  usage: usage(promptTokens),
  latencyMs: 700,
  retries: 0,
  costUsd: 0.002,
  ok: true,
  ...extra,
});
const ANA = { login: "ana", via: "comment" } as const;

const EVENTS = stored([
  {
    type: "session_created",
    sessionId: "s-1",
    task: { title: "t", body: "b", source: { kind: "cli", repo: "/r" } },
    model: "gpt-x",
    settings: { maxStepsPerResume: 9, limits: {} },
  },
  { type: "workspace_prepared", baseCommit: "b4se", workdir: "/w" },
  { type: "limits_configured", limits: { maxCostUsd: 2 }, source: ".github/patchgate.yml" },
  { type: "writes_auto_approved", by: ANA },
  { type: "resumed", trigger: "cli" },
  called(10),
  { type: "assistant_message", content: "Plan first.", toolCalls: [{ id: "call_A", name: "submit_plan", arguments: '{"summary":"s"}' }] },
  { type: "plan_approved", hash: "p1", by: ANA },
  called(0, { ok: false, error: "empty response", usage: usage(3) }),
  called(20, { finishReason: "length" }),
  { type: "assistant_message", content: null, toolCalls: [{ id: "call_B", name: "write_file", arguments: '{"path":"a' }] },
  called(30, { model: "gpt-mini" }),
  { type: "context_compacted", cutIndex: 3, summary: { goals: ["g"], facts: [], decisions: [], files_touched: [], open_questions: [] } },
  { type: "approval_granted", digest: "d1", by: ANA },
  called(0, { ok: false, error: "provider said 500", retries: 3 }),
  { type: "finish_accepted", summary: "s", treeHash: "tree-1" },
  { type: "published", branch: "b", commit: "c", tree: "tree-2" },
]);

const request = (tools: boolean): LLMRequest =>
  ({ messages: [], tools: tools ? [{ name: "read_file", description: "", parameters: {} }] : [] }) as unknown as LLMRequest;

describe("what a replay reads from a record", () => {
  test("how the session started, its base commit, what it was given before its first resume, and the human decisions after", () => {
    const rec = readRecording(EVENTS);
    expect({ id: rec.sessionId, model: rec.model, base: rec.baseCommit, settings: rec.settings }).toEqual({
      id: "s-1",
      model: "gpt-x",
      base: "b4se",
      settings: { maxStepsPerResume: 9, limits: {} },
    });
    expect(rec.preliminaries).toEqual([
      { type: "limits_configured", limits: { maxCostUsd: 2 }, source: ".github/patchgate.yml" },
      { type: "writes_auto_approved", by: ANA },
    ]);
    expect(rec.decisions.map((d) => [d.seq, d.type])).toEqual([
      [8, "plan_approved"],
      [14, "approval_granted"],
    ]);
  });

  test("every agent model call in order: answers, an empty answer, a failure; the summariser's call apart", () => {
    const rec = readRecording(EVENTS);
    expect(rec.turns.map((t) => (t.kind === "answer" ? [t.kind, t.toolCalls.map((c) => c.id), t.finishReason ?? null] : [t.kind]))).toEqual([
      ["answer", ["call_A"], null],
      ["empty"],
      ["answer", ["call_B"], "length"],
      ["error"],
    ]);
    expect(rec.summaries).toEqual([
      { model: "gpt-mini", usage: usage(30), summary: { goals: ["g"], facts: [], decisions: [], files_touched: [], open_questions: [] } },
    ]);
  });

  test("the published tree wins over the finish's; none when neither was recorded", () => {
    expect(recordedTree(EVENTS)).toBe("tree-2");
    expect(recordedTree(EVENTS.slice(0, 16))).toBe("tree-1");
    expect(recordedTree(EVENTS.slice(0, 5))).toBeNull();
  });

  test("a record without a workspace cannot be replayed, and says so in one line", () => {
    expect(() => readRecording(EVENTS.slice(0, 1))).toThrow(UnreplayableSessionError);
    expect(() => readRecording(EVENTS.slice(0, 1))).toThrow("session s-1 never prepared a workspace: nothing to replay");
  });

  const outsideInputs: SessionEvent[] = [
    { type: "session_reopened", by: "ana", phase: "planning" },
    { type: "branch_rebased", branch: "patchgate/s-1", onto: "n3w", foreign: [] },
    { type: "user_message", content: "also fix the docs", by: "ana" },
    { type: "grant_approved", digest: "g1", by: ANA },
    { type: "session_cancelled", by: "ana" },
  ];
  test.each(outsideInputs.map((e) => [e.type, e] as const))("a record holding %s, which a replay cannot give back, is refused by name", (type, outside) => {
    const events = stored([...EVENTS.slice(0, 15), outside, ...EVENTS.slice(15)]);
    expect(() => readRecording(events)).toThrow(UnreplayableSessionError);
    expect(() => readRecording(events)).toThrow(`session s-1 holds ${type} (event 16), an input from outside the session that a replay cannot give back`);
  });

  test("only the runtime's own events and the answers given back are followed: a kind the table does not name is not", () => {
    expect(firstNotFollowed(EVENTS)).toBeUndefined();
    const unknown = { type: "from_a_newer_version", seq: 1, at: "2026-01-01T00:00:00Z" } as unknown as StoredEvent;
    expect(firstNotFollowed([...EVENTS, unknown])).toBe(unknown);
    expect(Object.values(EVENT_ORIGIN).filter((o) => o === "not followed")).toHaveLength(8);
  });
});

describe("the replay's model", () => {
  test("answers each agent call with the recorded answer, ids and usage included, and fails where the record failed", async () => {
    const rec = readRecording(EVENTS);
    const llm = new ReplayLLM(rec.turns, rec.summaries, rec.model);
    const first = await llm.complete(request(true));
    expect(first).toMatchObject({
      content: "Plan first.",
      toolCalls: [{ id: "call_A", name: "submit_plan", arguments: '{"summary":"s"}' }],
      usage: usage(10),
      model: "gpt-x",
    });
    expect(await llm.complete(request(true))).toMatchObject({ content: null, toolCalls: [], usage: usage(3) });
    // The summariser's request has no tools: it gets the recorded summary, and takes no agent answer.
    const summary = await llm.complete(request(false));
    expect({ content: JSON.parse(summary.content ?? ""), model: summary.model }).toEqual({ content: rec.summaries[0].summary, model: "gpt-mini" });
    expect(await llm.complete(request(true))).toMatchObject({ toolCalls: [{ id: "call_B" }], finishReason: "length" });
    await expect(llm.complete(request(true))).rejects.toThrow("provider said 500");
    await expect(llm.complete(request(true))).rejects.toThrow("replay: the recording has no model answer for call 5");
  });
});

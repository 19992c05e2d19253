import { ScriptedLLM } from "../fakes/scripted-llm.js";
import { BUGGY_ADD_REPO } from "../helpers/git-fixture.js";
import { SessionHarness } from "../helpers/session-harness.js";

const read = { name: "read_file", arguments: { path: "README.md" } };

describe("the bounded loop", () => {
  let h: SessionHarness;
  afterEach(() => h.dispose());

  test("an unknown tool, bad JSON and a schema error go back to the model as tool results", async () => {
    h = await SessionHarness.create(BUGGY_ADD_REPO);
    const llm = new ScriptedLLM([
      { toolCalls: [{ name: "delete_everything", arguments: {} }] },
      { toolCalls: [{ name: "read_file", arguments: '{"path": "README.md"' }] },
      { toolCalls: [{ name: "read_file", arguments: { path: 42 } }] },
      { toolCalls: [{ name: "submit_plan", arguments: { summary: "s", steps: ["a"] } }] },
    ]);
    expect(await h.resume(llm)).toEqual({ kind: "parked", phase: "awaiting_plan_approval" });
    expect(h.results()).toEqual([
      { tool: "delete_everything", ok: false, code: "unknown_tool" },
      { tool: "read_file", ok: false, code: "invalid_arguments" },
      { tool: "read_file", ok: false, code: "invalid_arguments" },
      { tool: "submit_plan", ok: true },
    ]);
    const toolMessages = h.ledger.state.conversation.filter((m) => m.role === "tool");
    expect(toolMessages).toHaveLength(4);
  });

  test("an empty response is retried once, then the session fails cleanly with llm_empty", async () => {
    h = await SessionHarness.create(BUGGY_ADD_REPO);
    const llm = new ScriptedLLM([{ content: "" }, { content: null }, { toolCalls: [read] }]);
    expect(await h.resume(llm)).toEqual({ kind: "ended", phase: "failed" });
    expect(h.ledger.state.failure?.reason).toBe("llm_empty");
    expect(llm.remaining).toBe(1);
  });

  test("one empty response then a real one continues", async () => {
    h = await SessionHarness.create(BUGGY_ADD_REPO);
    const llm = new ScriptedLLM([{ content: "" }, { toolCalls: [{ name: "submit_plan", arguments: { summary: "s", steps: ["a"] } }] }]);
    expect(await h.resume(llm)).toEqual({ kind: "parked", phase: "awaiting_plan_approval" });
  });

  test("maxSteps model calls without parking ends the session as loop_limit", async () => {
    h = await SessionHarness.create(BUGGY_ADD_REPO, { maxStepsPerResume: 3 });
    const llm = new ScriptedLLM([{ toolCalls: [read] }, { toolCalls: [read] }, { toolCalls: [read] }, { toolCalls: [read] }]);
    expect(await h.resume(llm)).toEqual({ kind: "ended", phase: "failed" });
    expect(h.ledger.state.failure?.reason).toBe("loop_limit");
    expect(h.ledger.state.step).toBe(3);
  });

  test("a non-retryable LLM error ends the session as llm_error, visibly", async () => {
    h = await SessionHarness.create(BUGGY_ADD_REPO);
    const llm = new ScriptedLLM([{ error: { status: 401, message: "invalid api key" } }]);
    expect(await h.resume(llm)).toEqual({ kind: "ended", phase: "failed" });
    expect(h.ledger.state.failure).toEqual({ reason: "llm_error", message: "invalid api key" });
  });

  test("a text-only answer gets a nudge and the loop goes on", async () => {
    h = await SessionHarness.create(BUGGY_ADD_REPO);
    const llm = new ScriptedLLM([
      { content: "I think I will look around." },
      { toolCalls: [{ name: "submit_plan", arguments: { summary: "s", steps: ["a"] } }] },
    ]);
    expect(await h.resume(llm)).toEqual({ kind: "parked", phase: "awaiting_plan_approval" });
    expect(h.ledger.history.filter((e) => e.type === "user_message")).toHaveLength(1);
  });

  test("an aborted signal cancels the session before the next model call", async () => {
    h = await SessionHarness.create(BUGGY_ADD_REPO);
    const ac = new AbortController();
    const llm = new ScriptedLLM([
      () => {
        ac.abort();
        return { toolCalls: [read] };
      },
      { toolCalls: [read] },
    ]);
    expect(await h.resume(llm, { signal: ac.signal })).toEqual({ kind: "ended", phase: "cancelled" });
    expect(llm.remaining).toBe(1);
  });
});

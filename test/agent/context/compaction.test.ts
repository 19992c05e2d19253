import { chooseCut, compact, shouldCompact } from "../../../src/agent/context/compaction.js";
import { emptySummary } from "../../../src/agent/context/memory-summary.js";
import type { LLMResponse } from "../../../src/agent/llm/types.js";
import { reduce } from "../../../src/session/reducer.js";
import { CannedLLM } from "../../fakes/canned-llm.js";
import { SessionScript } from "../../trace/fixtures/session-script.js";

const VALID = JSON.stringify({
  goals: ["fix the parser"],
  facts: ["parser is in src/parser.ts"],
  decisions: [],
  files_touched: ["src/parser.ts (read)"],
  open_questions: ["does the CLI use it?"],
});

/** An executing session with `steps` read_file steps: conversation = task, approval, steps × (assistant, tool). */
function session(steps: number): SessionScript {
  const s = new SessionScript("sess-c").executing();
  for (let i = 0; i < steps; i++) s.toolStep("read_file", { path: `src/f${i}.ts` }, `content of f${i}`);
  return s;
}

describe("compact", () => {
  it("summarises the messages before the cut with a JSON-only, tool-less request", async () => {
    const state = session(10).state;
    const llm = new CannedLLM([VALID]);
    const event = await compact(state, llm, { keepRecent: 6 });
    expect(chooseCut(state.conversation, 6)).toBe(16);
    expect(event).toEqual({ type: "context_compacted", cutIndex: 16, summary: JSON.parse(VALID) });

    const [req] = llm.requests;
    expect(req.tools).toEqual([]);
    expect(req.messages.map((m) => m.role)).toEqual(["system", "user"]);
    expect(req.messages[0].content).toContain("Reply with one JSON object and nothing else");
    const user = req.messages[1].content as string;
    expect(user).toContain("<previous-summary>\n(none)\n</previous-summary>");
    // Messages 1..15 are summarised: the approval and the first seven steps (f0..f6); f7 onwards is kept.
    expect(user).toContain('→ call read_file {"path":"src/f6.ts"}');
    expect(user).not.toContain("src/f7.ts");
    expect(user).not.toContain("<task>");
  });

  it("merges the new summary into the previous one and summarises only from the previous cut", async () => {
    const s = session(10);
    s.add({ type: "context_compacted", cutIndex: 8, summary: { ...emptySummary(), facts: ["parser is in src/parser.ts", "old fact"] } });
    for (let i = 10; i < 14; i++) s.toolStep("read_file", { path: `src/f${i}.ts` }, "x");
    const llm = new CannedLLM([VALID]);
    const event = await compact(s.state, llm, { keepRecent: 6 });
    expect(event).toEqual({
      type: "context_compacted",
      cutIndex: 24,
      summary: {
        goals: ["fix the parser"],
        facts: ["parser is in src/parser.ts", "old fact"],
        decisions: [],
        files_touched: ["src/parser.ts (read)"],
        open_questions: ["does the CLI use it?"],
      },
    });
    const user = llm.requests[0].messages[1].content as string;
    expect(user).toContain('"old fact"');
    expect(user).not.toContain("src/f2.ts"); // before the previous cut (index 8)
    expect(user).toContain("src/f3.ts");
  });

  it("accepts a reply wrapped in a code fence", async () => {
    const event = await compact(session(10).state, new CannedLLM([`Here it is:\n\`\`\`json\n${VALID}\n\`\`\``]), { keepRecent: 6 });
    expect(event.type).toBe("context_compacted");
  });

  it.each<[string, ConstructorParameters<typeof CannedLLM>[0][number], string]>([
    ["invalid JSON", '{"goals": ["a"', "summariser reply is not a JSON object"],
    ["broken JSON", '{"goals": [a]}', "summariser reply is not valid JSON: "],
    [
      "a schema mismatch",
      '{"goals": "one", "facts": [], "decisions": [], "files_touched": [], "open_questions": []}',
      "summariser reply does not match the schema: goals: ",
    ],
    ["no text", { content: null }, "summariser returned no text"],
    ["tool calls", { content: VALID, toolCalls: [{ id: "x", name: "read_file", arguments: "{}" }] }, "summariser answered with tool calls instead of JSON"],
    ["a thrown error", new Error("503 upstream"), "summariser call failed: 503 upstream"],
  ])("fails with compaction_failed on %s, leaving the conversation and memory as they were", async (_name, answer, error) => {
    const s = session(10);
    s.add({ type: "context_compacted", cutIndex: 4, summary: { ...emptySummary(), facts: ["kept"] } });
    const before = s.state;
    const event = await compact(before, new CannedLLM([answer]), { keepRecent: 6 });
    expect(event.type).toBe("compaction_failed");
    expect((event as { error: string }).error.startsWith(error)).toBe(true);
    const after = reduce(before, event);
    expect(after.conversation).toBe(before.conversation);
    expect(after.memory).toEqual(before.memory);
  });

  it("fails without calling the model when no cut moves past the current one", async () => {
    const llm = new CannedLLM([]);
    const event = await compact(session(2).state, llm, { keepRecent: 6 });
    expect(event).toEqual({ type: "compaction_failed", error: "nothing to compact: no safe cut after message 0 keeps the last 6 messages" });
    expect(llm.requests).toHaveLength(0);
  });

  it("reports the summariser's response for accounting, and survives a throwing callback", async () => {
    const seen: LLMResponse[] = [];
    await compact(session(10).state, new CannedLLM([VALID]), { keepRecent: 6, onResponse: (r) => seen.push(r) });
    expect(seen.map((r) => r.usage)).toEqual([{ promptTokens: 50, completionTokens: 10, estimated: false }]);
    const event = await compact(session(10).state, new CannedLLM([VALID]), {
      keepRecent: 6,
      onResponse: () => {
        throw new Error("ledger down");
      },
    });
    expect(event.type).toBe("context_compacted");
  });
});

describe("shouldCompact", () => {
  const loose = { maxPromptTokens: 1_000_000, maxTurns: 1000, keepRecent: 6 };

  it("is false below both thresholds", () => {
    expect(shouldCompact(session(20).state, loose)).toBe(false);
  });

  it("triggers on turns: assistant messages in the window", () => {
    expect(shouldCompact(session(20).state, { ...loose, maxTurns: 19 })).toBe(true);
    expect(shouldCompact(session(20).state, { ...loose, maxTurns: 20 })).toBe(false);
  });

  it("triggers on estimated prompt tokens", () => {
    expect(shouldCompact(session(20).state, { ...loose, maxPromptTokens: 500 })).toBe(true);
  });

  it("is false when no cut is possible, however low the thresholds", () => {
    expect(shouldCompact(session(2).state, { maxPromptTokens: 1, maxTurns: 0, keepRecent: 6 })).toBe(false);
  });

  it("is false once compacted until the window grows again", () => {
    const s = session(20);
    s.add({ type: "context_compacted", cutIndex: chooseCut(s.state.conversation, 6)!, summary: emptySummary() });
    expect(shouldCompact(s.state, { ...loose, maxTurns: 5 })).toBe(false);
    for (let i = 0; i < 4; i++) s.toolStep("read_file", { path: "x" }, "y");
    expect(shouldCompact(s.state, { ...loose, maxTurns: 5 })).toBe(true);
  });

  it("is false for an ended session", () => {
    const s = session(20).add({ type: "session_cancelled", by: "alice" });
    expect(shouldCompact(s.state, { ...loose, maxTurns: 0 })).toBe(false);
  });
});

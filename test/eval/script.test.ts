import { LLMError } from "../../src/agent/llm/types.js";
import { CaseScriptLLM } from "../../src/eval/script-llm.js";
import { expandScript, ScriptStepSchema } from "../../src/eval/script-schema.js";

const tools = [{ name: "read_file", description: "", parameters: {} }];
const agentTurn = { messages: [], tools };

describe("case scripts", () => {
  test("shorthand, parallel calls, raw arguments, usage, errors and repeats expand to flat answers", () => {
    const steps = [
      { say: "looking", tool: "read_file", args: { path: "a" } },
      {
        calls: [
          { tool: "read_file", args: { path: "b" } },
          { tool: "x", args: "{bad" },
        ],
      },
      { tool: "run_tests", usage: { prompt_tokens: 5, completion_tokens: 1 }, repeat: 2 },
      { error: 503 },
    ].map((s) => ScriptStepSchema.parse(s));
    expect(expandScript(steps)).toEqual([
      { kind: "answer", content: "looking", calls: [{ name: "read_file", arguments: { path: "a" } }] },
      {
        kind: "answer",
        content: null,
        calls: [
          { name: "read_file", arguments: { path: "b" } },
          { name: "x", arguments: "{bad" },
        ],
      },
      { kind: "answer", content: null, calls: [{ name: "run_tests", arguments: {} }], usage: { promptTokens: 5, completionTokens: 1 } },
      { kind: "answer", content: null, calls: [{ name: "run_tests", arguments: {} }], usage: { promptTokens: 5, completionTokens: 1 } },
      { kind: "error", status: 503 },
    ]);
  });

  test("an error step answers nothing else; args need a tool", () => {
    expect(ScriptStepSchema.safeParse({ error: 401, say: "x" }).success).toBe(false);
    expect(ScriptStepSchema.safeParse({ args: { a: 1 } }).success).toBe(false);
    expect(ScriptStepSchema.safeParse({ error: 200 }).success).toBe(false);
  });
});

describe("the scripted model of a case", () => {
  test("plays agent turns in order and fails visibly past the end", async () => {
    const llm = new CaseScriptLLM([{ kind: "answer", content: null, calls: [{ name: "read_file", arguments: { path: "a" } }] }]);
    const first = await llm.complete(agentTurn);
    expect(first.toolCalls).toEqual([{ id: "call_1", name: "read_file", arguments: '{"path":"a"}' }]);
    await expect(llm.complete(agentTurn)).rejects.toThrow(/ran out of turns/);
  });

  test("a scripted provider error is an LLMError with its status", async () => {
    const llm = new CaseScriptLLM([{ kind: "error", status: 401 }]);
    const err = await llm.complete(agentTurn).catch((e: unknown) => e);
    expect(LLMError.isInstance(err) && err.status).toBe(401);
  });

  test("answers the summariser (no tools) without using a script step", async () => {
    const llm = new CaseScriptLLM([{ kind: "answer", content: "still here", calls: [] }]);
    const transcript = 'Task title: Fix mean\n\n<transcript>\n[assistant]\n→ call read_file {"path":"src/stats.js"} (id call_1)\n</transcript>';
    const summary = await llm.complete({
      messages: [
        { role: "system", content: "summarise" },
        { role: "user", content: transcript },
      ],
      tools: [],
    });
    expect(JSON.parse(summary.content ?? "")).toEqual({
      goals: ["Fix mean"],
      facts: [],
      decisions: [],
      files_touched: ["src/stats.js (read_file)"],
      open_questions: [],
    });
    expect(llm.summaries).toBe(1);
    expect((await llm.complete(agentTurn)).content).toBe("still here");
  });
});

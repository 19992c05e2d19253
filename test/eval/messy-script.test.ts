import { resultText } from "../../src/session/result-text.js";
import type { ScriptTurn } from "../../src/agent/llm/scripted.js";
import type { LLMRequest } from "../../src/agent/llm/types.js";
import { messySteps } from "../../src/eval/messy-script.js";
import type { ScriptAnswer } from "../../src/eval/script-schema.js";
import type { Message } from "../../src/session/messages.js";

const answer = (calls: { name: string; arguments: object | string }[], content: string | null = null): ScriptAnswer => ({ kind: "answer", content, calls });
const EDIT = { path: "a.js", edits: [{ search: "two\nthree", replace: "2\n3" }] };

function play(answers: ScriptAnswer[], messages: Message[] = []): ScriptTurn[] {
  const req: LLMRequest = { messages, tools: [] };
  return messySteps(answers).map((s) => (typeof s === "function" ? s(req) : s));
}

describe("the messy model's answers", () => {
  const script = [
    answer([{ name: "read_file", arguments: { path: "a.js" } }]),
    answer([{ name: "edit_file", arguments: EDIT }]),
    answer([{ name: "finish", arguments: { summary: "s" } }], "Done."),
  ];

  test("a malformed copy of the first read, then the read twice in parallel; a cut copy of the first write; text beside every call", () => {
    const turns = play(script);
    expect(turns.map((t) => ("error" in t ? "error" : [t.content, t.toolCalls?.map((c) => [c.id, c.name, c.arguments]), t.finishReason ?? null]))).toEqual([
      ["I will call read_file.", [["call_0", "read_file", '{"path":"a.js",}']], null],
      [
        "I will call read_file, read_file.",
        [
          ["call_0", "read_file", { path: "a.js" }],
          ["call_0", "read_file", { path: "a.js" }],
        ],
        null,
      ],
      ["I will call edit_file.", [["call_0", "edit_file", JSON.stringify(EDIT).slice(0, Math.floor(JSON.stringify(EDIT).length / 2))]], "length"],
      ["I will call edit_file.", [["call_0", "edit_file", EDIT]], null],
      ["Done.", [["call_0", "finish", { summary: "s" }]], null],
    ]);
  });

  test("an edit of a file last seen in a read carries the read's line numbers; after a write to it, it does not", () => {
    const read: Message[] = [
      { role: "assistant", content: null, toolCalls: [{ id: "r", name: "read_file", arguments: '{"path":"a.js"}' }] },
      {
        role: "tool",
        toolCallId: "r",
        content: resultText({ ok: true, data: { path: "a.js", content: "1│one\n2│two\n3│three" } }) + "\n\n<runtime-context>x</runtime-context>",
      },
    ];
    const edit = (messages: Message[]) => play([answer([{ name: "edit_file", arguments: EDIT }])], messages).at(-1)!;
    expect(edit(read)).toMatchObject({ toolCalls: [{ arguments: { path: "a.js", edits: [{ search: "2│two\n3│three", replace: "2│2\n3│3" }] } }] });
    const written: Message[] = [
      ...read,
      { role: "assistant", content: null, toolCalls: [{ id: "w", name: "write_file", arguments: '{"path":"a.js","content":"x"}' }] },
      { role: "tool", toolCallId: "w", content: resultText({ ok: true, data: {} }) },
    ];
    expect(edit(written)).toMatchObject({ toolCalls: [{ arguments: EDIT }] });
  });

  test("provider errors stay errors; ids repeat within a turn of several calls", () => {
    const turns = play([
      { kind: "error", status: 500 },
      answer([
        { name: "run_tests", arguments: {} },
        { name: "finish", arguments: {} },
      ]),
    ]);
    expect(turns[0]).toEqual({ error: { status: 500, message: "scripted provider error 500" } });
    expect("toolCalls" in turns[1] && turns[1].toolCalls?.map((c) => c.id)).toEqual(["call_0", "call_0"]);
  });
});

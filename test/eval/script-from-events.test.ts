import { parse, stringify } from "yaml";
import { z } from "zod";
import { scriptFromEvents } from "../../src/eval/script-from-events.js";
import { expandScript, ScriptStepSchema } from "../../src/eval/script-schema.js";
import type { SessionEvent } from "../../src/session/events.js";

const called = (promptTokens: number, extra: Partial<Extract<SessionEvent, { type: "llm_called" }>> = {}): SessionEvent => ({
  type: "llm_called",
  model: "m",
  usage: { promptTokens, completionTokens: 7, estimated: false },
  latencyMs: 1,
  retries: 0,
  costUsd: 0,
  ok: true,
  ...extra,
});

describe("a recorded session's replies as a case script", () => {
  const events: SessionEvent[] = [
    called(100),
    {
      type: "assistant_message",
      content: "Reading first.",
      toolCalls: [
        { id: "a", name: "read_file", arguments: '{"path":"src/a.js"}' },
        { id: "b", name: "list_files", arguments: "{}" },
      ],
    },
    {
      type: "tool_result",
      callId: "a",
      tool: "read_file",
      toolVersion: "1",
      input: { path: "src/a.js" },
      result: { ok: true, data: {} },
      durationMs: 1,
    } as unknown as SessionEvent,
    called(0, { ok: false, error: "502" }),
    called(200, { finishReason: "length" }),
    { type: "assistant_message", content: null, toolCalls: [{ id: "c", name: "write_file", arguments: '{"path":"x","content":"ab' }] },
    called(300),
    { type: "assistant_message", content: "", toolCalls: [] },
  ];

  test("each reply in order: text, calls (raw text where it was not JSON), reported usage, the cut", () => {
    expect(scriptFromEvents(events)).toEqual([
      {
        say: "Reading first.",
        calls: [
          { tool: "read_file", args: { path: "src/a.js" } },
          { tool: "list_files", args: {} },
        ],
        usage: { prompt_tokens: 100, completion_tokens: 7 },
        repeat: 1,
      },
      {
        calls: [{ tool: "write_file", args: '{"path":"x","content":"ab' }],
        usage: { prompt_tokens: 200, completion_tokens: 7 },
        cut_at_limit: true,
        repeat: 1,
      },
      { usage: { prompt_tokens: 300, completion_tokens: 7 }, repeat: 1 },
    ]);
  });

  test("the YAML a case takes: it loads and plays back the same calls", () => {
    const loaded = z.array(ScriptStepSchema).parse((parse(stringify({ script: scriptFromEvents(events) })) as { script: unknown }).script);
    const answers = expandScript(loaded);
    expect(answers.map((a) => (a.kind === "answer" ? [a.content, a.calls.map((c) => [c.name, c.arguments]), a.cutAtLimit ?? false] : a.kind))).toEqual([
      [
        "Reading first.",
        [
          ["read_file", { path: "src/a.js" }],
          ["list_files", {}],
        ],
        false,
      ],
      [null, [["write_file", '{"path":"x","content":"ab']], true],
      [null, [], false],
    ]);
  });
});

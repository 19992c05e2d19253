import { estimateMessagesTokens, estimateTokens } from "../../../src/agent/llm/tokens.js";
import type { Message } from "../../../src/session/messages.js";

describe("estimateTokens (o200k_base)", () => {
  it("counts with the real tokenizer", () => {
    expect(estimateTokens("")).toBe(0);
    expect(estimateTokens("hello")).toBe(1);
    expect(estimateTokens("hello world")).toBe(2);
  });

  it("counts special-token text as plain text instead of throwing", () => {
    // As a special token it would be 1; as text it is "<", "|", "end", "of", "text", "|", ">".
    expect(estimateTokens("<|endoftext|>")).toBe(7);
  });

  it("gives the same answer for a long string counted twice (memoised path)", () => {
    const text = "export function add(a: number, b: number): number { return a + b; }\n".repeat(40);
    const first = estimateTokens(text);
    expect(first).toBe(760);
    expect(estimateTokens(text)).toBe(first);
  });
});

describe("estimateMessagesTokens", () => {
  const messages: Message[] = [
    { role: "system", content: "You are helpful." },
    { role: "user", content: "hello world" },
    { role: "assistant", content: null, toolCalls: [{ id: "c1", name: "read_file", arguments: '{"path":"a.ts"}' }] },
    { role: "tool", toolCallId: "c1", content: '{"ok":true}' },
  ];

  it("adds per-message framing to the content tokens", () => {
    const content =
      estimateTokens("You are helpful.") +
      estimateTokens("hello world") +
      estimateTokens("read_file") +
      estimateTokens('{"path":"a.ts"}') +
      estimateTokens('{"ok":true}');
    const roles = ["system", "user", "assistant", "tool"].reduce((n, r) => n + estimateTokens(r), 0);
    // 3 per message, 3 per tool call, 3 for the reply priming.
    expect(estimateMessagesTokens(messages)).toBe(content + roles + 4 * 3 + 3 + 3);
  });

  it("adds the tool definitions when given", () => {
    const tool = { name: "read_file", description: "Read a file.", parameters: { type: "object", properties: { path: { type: "string" } } } };
    const extra = 12 + estimateTokens(tool.name) + estimateTokens(tool.description) + estimateTokens(JSON.stringify(tool.parameters));
    expect(estimateMessagesTokens(messages, [tool])).toBe(estimateMessagesTokens(messages) + extra);
  });
});

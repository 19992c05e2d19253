import { readFileSync } from "node:fs";
import { estimateMessageTokens, estimatePromptTokens, estimateTextTokens } from "../../../src/agent/context/prompt-size.js";
import type { Message } from "../../../src/session/messages.js";
import { estimateTokens } from "../../../src/agent/llm/tokens.js";

// Real text of the kinds a prompt holds: source, JSON-escaped tool output, prose, a lockfile.
const source = readFileSync("src/agent/run-session.ts", "utf8");
const prose = readFileSync("docs/design.md", "utf8").slice(0, 30_000);
const lock = readFileSync("package-lock.json", "utf8").slice(0, 30_000);
const samples: [string, string][] = [
  ["TypeScript source", source],
  ["a tool result as JSON", JSON.stringify({ ok: true, data: { content: source } })],
  ["English markdown", prose],
  ["German prose", "Größenänderung übermäßig schöner Bäume und Flüsse, während die Straße nass ist. ".repeat(100)],
  ["CJK prose", "这是一个测试文件，用于检查分词器的行为和估计的准确性。".repeat(100)],
];

describe("the byte estimate of prompt size", () => {
  it.each(samples)("does not count fewer tokens than o200k for %s", (_name, text) => {
    const exact = estimateTokens(text);
    expect(estimateTextTokens(text)).toBeGreaterThanOrEqual(exact);
    // …and not wildly more: within 2× for everything a session reads.
    expect(estimateTextTokens(text)).toBeLessThanOrEqual(2 * exact);
  });

  it("undercounts dense text (a lockfile's hashes and URLs) by less than a quarter", () => {
    // Known and accepted: the trigger starts compaction at 60% of the free context (compaction-thresholds.ts).
    const exact = estimateTokens(lock);
    expect(estimateTextTokens(lock)).toBeLessThan(exact);
    expect(estimateTextTokens(lock)).toBeGreaterThan(0.75 * exact);
  });

  it("counts a message's text, its tool calls and its framing", () => {
    const m: Message = { role: "assistant", content: "abc", toolCalls: [{ id: "c1", name: "read_file", arguments: '{"path":"a.ts"}' }] };
    expect(estimateMessageTokens(m)).toBe(4 + 1 + 3 + estimateTextTokens("read_file") + estimateTextTokens('{"path":"a.ts"}'));
    expect(estimatePromptTokens([m, m])).toBe(3 + 2 * estimateMessageTokens(m));
    expect(estimateTextTokens("")).toBe(0);
  });

  it("measures each message object once: the same object keeps its count", () => {
    const m = { role: "user", content: "x".repeat(300) } as { role: "user"; content: string };
    expect(estimateMessageTokens(m)).toBe(104);
    // Messages are immutable in the runtime; a count kept with the object is what makes a step cheap.
    m.content = "y";
    expect(estimateMessageTokens(m)).toBe(104);
    expect(estimateMessageTokens({ role: "user", content: "y" })).toBe(5);
  });
});

import { readResultText } from "../../src/session/result-read.js";
import { resultText } from "../../src/session/result-text.js";
import type { ToolResult } from "../../src/session/types.js";

const FILE = 'const a = "tab\\there";\n\tindented\\n "quoted" \\\\ back\nnon-ASCII: é ü 漢字 🚀\n--- end of content ---';

describe("a tool result as text", () => {
  test("a read_file page: the head says ok, fields one a line, the content as it is between counted markers", () => {
    const r: ToolResult = { ok: true, data: { path: "src/a.js", note: "lines 1–4 of 4 (end of file)", start_line: 1, total_lines: 4, content: FILE } };
    expect(resultText(r)).toBe(
      [
        "ok",
        "path: src/a.js",
        "note: lines 1–4 of 4 (end of file)",
        "start_line: 1",
        "total_lines: 4",
        "--- content (4 lines) ---",
        FILE,
        "--- end of content ---",
      ].join("\n"),
    );
  });

  test("an error leads with its code and message; its details follow as fields", () => {
    const r: ToolResult = {
      ok: false,
      error: { code: "edit_without_read", message: "read lines 2500–2500 first", details: { path: "a.js", missing: [[2500, 2500]] } },
    };
    expect(resultText(r)).toBe(
      ["error edit_without_read: read lines 2500–2500 first", "details:", "  path: a.js", "  missing (1):", "  - [2500,2500]"].join("\n"),
    );
  });

  test("lists one item a line, objects indented, an empty list counted, a string that reads as a number quoted", () => {
    const r: ToolResult = {
      ok: true,
      data: { files: ["a.js", "b.js"], none: [], failures: [{ name: "adds", message: "expected 3\ngot 4" }], version: "12", empty: {} },
      truncated: true,
    };
    expect(resultText(r)).toBe(
      [
        "ok (truncated: the notes below say what was left out)",
        "files (2):",
        "- a.js",
        "- b.js",
        "none (0):",
        "failures (1):",
        "-",
        "  name: adds",
        "  --- message (2 lines) ---",
        "expected 3",
        "got 4",
        "  --- end of message ---",
        'version: "12"',
        "empty: {}",
      ].join("\n"),
    );
  });

  test.each<[string, ToolResult]>([
    ["a page whose text contains the end marker", { ok: true, data: { content: FILE, next_start_line: 5 } }],
    [
      "nested fields and lists",
      {
        ok: true,
        data: { totals: { passed: 3, failed: 1 }, failures: [{ name: "x", file: "t.js", line: 4 }], matches: ["a.js:1:x: y"], passed: false, signal: null },
        truncated: true,
      },
    ],
    ["a multi-line error message", { ok: false, error: { code: "mcp_tool_error", message: "first\nsecond", details: { content: "1\n2" } } }],
    ["a bare text", { ok: true, data: "line 1\nline 2\n" }],
    ["a text ending in a newline and one with spaces around it", { ok: true, data: { stdout: "ok\n", note: "  padded  ", blank: "" } }],
  ])("reads back as it was: %s", (_name, r) => {
    expect(readResultText(resultText(r))).toEqual(r);
  });

  test("the runtime-context block riding on the last result is not part of it", () => {
    expect(readResultText(`${resultText({ ok: true, data: { a: 1 } })}\n\n<runtime-context>\nmode: execute\n</runtime-context>`)).toEqual({
      ok: true,
      data: { a: 1 },
    });
  });

  test("a string is quoted exactly when it reads as another JSON value, and reads back as the same string", () => {
    const asJson = ["12", "-3.5", " 7", "\t1e3", "true", "false", "null", '"x"', "[1]", "{}", ' {"a": 1}'];
    const asText = ["src/a.js", "tru", "nul", "-", "12 apples", "[not json", "fals", "", " ", "{a}", "'x'", "é"];
    for (const value of [...asJson, ...asText]) {
      const line = resultText({ ok: true, data: { value } }).split("\n")[1];
      expect(line).toBe(asJson.includes(value) ? `value: ${JSON.stringify(value)}` : `value: ${value}`);
      expect(readResultText(resultText({ ok: true, data: { value } }))).toEqual({ ok: true, data: { value } });
    }
  });
});

import { withCode } from "../../src/trace/report/doc.js";
import { htmlText, literalLineStart, markdownText, neutralise, terminalText } from "../../src/trace/report/literal.js";
import { summaryWithoutSteps } from "../../src/trace/report/plan.js";
import { testCounts } from "../../src/trace/report/test-counts.js";
import { fileChanges } from "../../src/trace/report/file-changes.js";

const J = "\u2060";

describe("literal text in the report", () => {
  test.each([
    ["**bold** _it_ `code`", "\\*\\*bold\\*\\* \\_it\\_ \\`code\\`"],
    ["![img](https://x.example/p.png)", `\\!\\[img\\](https${J}://x.example/p.png)`],
    ["<img src=x> & &amp;", "\\<img src=x\\> \\& \\&amp;"],
    ["a | b ~~s~~ $x$", "a \\| b \\~\\~s\\~\\~ \\$x\\$"],
    ["line one\nline two", "line one line two"],
  ])("markdown: %j", (input, expected) => expect(markdownText(input)).toBe(expected));

  test.each([
    ["1. step", "1\\. step"],
    ["- item", "\\- item"],
    ["# heading", "\\# heading"],
    ["> quote", "\\> quote"],
    ["    indented code", "indented code"],
    ["=== setext", "\\=== setext"],
    ["12) item", "12\\) item"],
    ["plain 1. mid-line", "plain 1. mid-line"],
  ])("a line start that would make a block: %j", (input, expected) => expect(literalLineStart(input)).toBe(expected));

  test("mentions, issue references and autolinks are broken with a word joiner", () => {
    expect(neutralise("@alice owner/repo#3 GH-4 www.x.example http://a")).toBe(`@${J}alice owner/repo#${J}3 GH${J}-4 www${J}.x.example http${J}://a`);
    expect(neutralise("mail a@b.example")).toBe("mail a@b.example");
    expect(neutralise("shown <!-- hidden --> shown <!-- to the end")).toBe("shown  shown ");
  });

  test("HTML text: tags and entities escaped", () => {
    expect(htmlText(`<script>"x" & 'y'</script>`)).toBe("&lt;script&gt;&quot;x&quot; &amp; &#39;y&#39;&lt;/script&gt;");
  });

  test("terminal text: escape sequences and bidi overrides removed, newlines kept", () => {
    expect(terminalText("a\u001b[31mred\u001b[0m\u202Eb\nc\r")).toBe("a[31mred[0mb\nc");
  });

  test("model prose keeps its code spans as code, the rest literal", () => {
    expect(withCode("Change `a - b` to ``a ` b`` now")).toEqual(["Change ", { code: "a - b" }, " to ", { code: "a ` b" }, " now"]);
    expect(withCode("an ` unmatched tick")).toEqual(["an ` unmatched tick"]);
  });
});

describe("the plan's summary without its repeated steps", () => {
  test("lines restating a step (with or without a list marker or backticks) go; the rest stays", () => {
    const plan = { summary: "Fix it:\n1. Change `a` in x.js\n- run the tests\nStep 3: Done\nThen ship.", steps: ["Change a in x.js", "Run the tests"] };
    expect(summaryWithoutSteps(plan)).toEqual(["Fix it:", "Step 3: Done", "Then ship."]);
  });
});

describe("test counts from a runner's closing lines", () => {
  test.each([
    ["Tests:       1 failed, 2 passed, 3 total", { passed: 2, failed: 1 }],
    ["# pass 2\n# fail 0", { passed: 2, failed: 0 }],
    ["  3 passing (12ms)\n  1 failing", { passed: 3, failed: 1 }],
    ["test result: ok. 4 passed; 0 failed; 0 ignored", { passed: 4, failed: 0 }],
    ["==== 1 failed, 5 passed in 0.1s ====", { passed: 5, failed: 1 }],
    ["ok", null],
  ])("%j", (summary, expected) => expect(testCounts(summary)).toEqual(expected));
});

describe("files of a git patch", () => {
  test("modified, added with a quoted name, renamed, deleted and binary files, with added line numbers", () => {
    const patch = [
      "diff --git a/src/a.js b/src/a.js",
      "--- a/src/a.js",
      "+++ b/src/a.js",
      "@@ -1,3 +1,4 @@",
      " one",
      "-two",
      "+TWO",
      "+2b",
      " three",
      'diff --git "a/sp ace\\303\\251.txt" "b/sp ace\\303\\251.txt"',
      "new file mode 100644",
      "--- /dev/null",
      '+++ "b/sp ace\\303\\251.txt"',
      "@@ -0,0 +1 @@",
      "+hi",
      "diff --git a/old.txt b/new.txt",
      "similarity index 100%",
      "rename from old.txt",
      "rename to new.txt",
      "diff --git a/gone.txt b/gone.txt",
      "deleted file mode 100644",
      "--- a/gone.txt",
      "+++ /dev/null",
      "@@ -1 +0,0 @@",
      "-bye",
      "diff --git a/img.png b/img.png",
      "new file mode 100644",
      "GIT binary patch",
      "literal 3",
      "KcmZ?wWMlvU0RRC6",
      "",
    ].join("\n");
    expect(fileChanges(patch).map((f) => [f.path, f.status, f.from ?? null, f.added, f.deleted, f.binary, f.addedLines.map((l) => l.line)])).toEqual([
      ["src/a.js", "modified", null, 2, 1, false, [2, 3]],
      ["sp aceé.txt", "added", null, 1, 0, false, [1]],
      ["new.txt", "renamed", "old.txt", 0, 0, false, []],
      ["gone.txt", "deleted", null, 0, 1, false, []],
      ["img.png", "added", null, 0, 0, true, []],
    ]);
  });
});

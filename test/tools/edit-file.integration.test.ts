import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { contentHash } from "../../src/policy/edit-context.js";
import { editFileTool } from "../../src/tools/edit-file.js";
import { readFileTool } from "../../src/tools/read-file.js";
import { harnessFactory } from "./helpers/harness-factory.js";
import { codeOf, dataOf, type ToolHarness } from "./helpers/tool-harness.js";

const ADD = "export function add(a, b) {\n  return a - b;\n}\n\nexport function sub(a, b) {\n  return a - b;\n}\n";

describe("edit_file", () => {
  const make = harnessFactory();
  async function readied(files: Record<string, string>, path: string): Promise<ToolHarness> {
    const h = await make(files);
    await h.call(readFileTool, { path });
    return h;
  }
  const onDisk = (h: ToolHarness, p: string) => readFileSync(join(h.workspace.root, p), "utf8");

  test("a block that matches exactly once is applied; file_written carries the new hash", async () => {
    const h = await readied({ "m.js": ADD }, "m.js");
    const edits = [{ search: "function add(a, b) {\n  return a - b;", replace: "function add(a, b) {\n  return a + b;" }];
    const { result, events } = await h.call(editFileTool, { path: "m.js", edits });
    const after = ADD.replace("return a - b;", "return a + b;");
    expect(onDisk(h, "m.js")).toBe(after);
    expect(events).toEqual([{ type: "file_written", path: "m.js", hash: contentHash(after) }]);
    const data = dataOf(result);
    expect([data.path, data.edits_applied, data.bytes]).toEqual(["m.js", 1, Buffer.byteLength(after)]);
    expect(data.diff).toContain("-  return a - b;\n+  return a + b;\n");
  });

  test("several blocks apply together", async () => {
    const h = await readied({ "m.js": ADD }, "m.js");
    const edits = [
      { search: "export function add", replace: "export function plus" },
      { search: "export function sub", replace: "export function minus" },
    ];
    await h.call(editFileTool, { path: "m.js", edits });
    expect(onDisk(h, "m.js")).toBe(ADD.replace("add", "plus").replace("sub", "minus"));
  });

  test("zero matches is bad_patch with the closest region and its line numbers", async () => {
    const h = await readied({ "m.js": ADD }, "m.js");
    const edits = [{ search: "function sub(a, b) {\n  return a - c;\n}", replace: "x" }];
    const { result } = await h.call(editFileTool, { path: "m.js", edits });
    expect(result).toEqual({
      ok: false,
      error: {
        code: "bad_patch",
        message:
          "edit 1 of 1: the search text was not found in m.js. The closest region is lines 5-7 (similarity 0.89); copy the exact text from there and retry. No edit was applied.",
        details: {
          edit: 1,
          matches: 0,
          closest: { start_line: 5, end_line: 7, similarity: 0.89, text: "5│export function sub(a, b) {\n6│  return a - b;\n7│}", whitespace_only: false },
        },
      },
    });
    expect(onDisk(h, "m.js")).toBe(ADD);
  });

  test("an indentation-only mismatch is pointed out", async () => {
    const h = await readied({ "m.js": ADD }, "m.js");
    const { result } = await h.call(editFileTool, { path: "m.js", edits: [{ search: "export function add(a, b) {\nreturn a - b;", replace: "x" }] });
    expect(result.ok ? null : result.error.message).toContain("lines 1-2 (similarity 1, differs only in whitespace)");
  });

  // Runs on Patchgate's event loop: counting lines per match made 60 000 matches take ~10 s (quadratic).
  test("very many matches: bad_patch at once, naming the count and only the first lines", async () => {
    const h = await readied({ "lock.txt": "x\n".repeat(100_000) }, "lock.txt");
    const started = Date.now();
    const { result } = await h.call(editFileTool, { path: "lock.txt", edits: [{ search: "x", replace: "y" }] });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(result.ok ? null : result.error.details).toEqual({ edit: 1, matches: 100_000, match_lines: Array.from({ length: 20 }, (_, i) => i + 1) });
    expect(result.ok ? "" : result.error.message).toContain("(at lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, …)");
  }, 120_000);

  test("multiple matches is bad_patch with the count and the lines", async () => {
    const h = await readied({ "m.js": ADD }, "m.js");
    const { result } = await h.call(editFileTool, { path: "m.js", edits: [{ search: "return a - b;", replace: "return 0;" }] });
    expect(result).toEqual({
      ok: false,
      error: {
        code: "bad_patch",
        message:
          "edit 1 of 1: the search text matches 2 times in m.js (at lines 2, 6); include more surrounding lines so it matches exactly once. No edit was applied.",
        details: { edit: 1, matches: 2, match_lines: [2, 6] },
      },
    });
  });

  test("all or nothing: a failing second block leaves the file untouched", async () => {
    const h = await readied({ "m.js": ADD }, "m.js");
    const edits = [
      { search: "export function add", replace: "export function plus" },
      { search: "no such text", replace: "y" },
    ];
    const { result } = await h.call(editFileTool, { path: "m.js", edits });
    expect(result.ok ? null : [result.error.code, (result.error.details as { edit: number }).edit]).toEqual(["bad_patch", 2]);
    expect(onDisk(h, "m.js")).toBe(ADD);
  });

  test("overlapping blocks are bad_patch", async () => {
    const h = await readied({ "m.js": ADD }, "m.js");
    const edits = [
      { search: "export function add(a, b)", replace: "x" },
      { search: "add(a, b) {\n  return a - b;\n}\n\nexport", replace: "y" },
    ];
    const { result } = await h.call(editFileTool, { path: "m.js", edits });
    expect(result.ok ? null : result.error.message).toBe("edits 1 and 2 overlap in m.js; merge them into one block. No edit was applied.");
  });

  test("without a read it is edit_without_read", async () => {
    const h = await make({ "m.js": ADD });
    expect(codeOf((await h.call(editFileTool, { path: "m.js", edits: [{ search: "add", replace: "plus" }] })).result)).toBe("edit_without_read");
  });

  test("read, external change, edit → edit_without_read (changed since read)", async () => {
    const h = await readied({ "m.js": ADD }, "m.js");
    writeFileSync(join(h.workspace.root, "m.js"), ADD + "// touched\n");
    const { result } = await h.call(editFileTool, { path: "m.js", edits: [{ search: "export function add", replace: "export function plus" }] });
    expect(result.ok ? null : [result.error.code, (result.error.details as { reason: string }).reason]).toEqual(["edit_without_read", "changed_since_read"]);
  });

  test("a second edit after its own first edit needs no re-read", async () => {
    const h = await readied({ "m.js": ADD }, "m.js");
    await h.call(editFileTool, { path: "m.js", edits: [{ search: "export function add", replace: "export function plus" }] });
    expect(codeOf((await h.call(editFileTool, { path: "m.js", edits: [{ search: "export function sub", replace: "export function minus" }] })).result)).toBe(
      "ok",
    );
  });

  test("a missing file is file_not_found", async () => {
    const h = await make({ "m.js": ADD });
    expect(codeOf((await h.call(editFileTool, { path: "nope.js", edits: [{ search: "a", replace: "b" }] })).result)).toBe("file_not_found");
  });

  test("protected paths are path_denied", async () => {
    const h = await readied({ ".github/workflows/ci.yml": "on: push\n" }, ".github/workflows/ci.yml");
    expect(codeOf((await h.call(editFileTool, { path: ".github/workflows/ci.yml", edits: [{ search: "push", replace: "pull_request" }] })).result)).toBe(
      "path_denied",
    );
  });

  test("a CRLF file matches blocks written with \\n and keeps its line ends", async () => {
    const h = await readied({ "w.txt": "one\r\ntwo\r\nthree\r\n" }, "w.txt");
    await h.call(editFileTool, { path: "w.txt", edits: [{ search: "one\ntwo", replace: "uno\ndos" }] });
    expect(onDisk(h, "w.txt")).toBe("uno\r\ndos\r\nthree\r\n");
  });

  test("a block copied with read_file's line numbers applies at those lines, even where the text repeats", async () => {
    const h = await readied({ "m.js": ADD }, "m.js");
    const edits = [{ search: "6│  return a - b;\n7│}", replace: "6│  return b - a;\n7│}" }];
    const { result } = await h.call(editFileTool, { path: "m.js", edits });
    expect(result.ok).toBe(true);
    expect(onDisk(h, "m.js")).toBe("export function add(a, b) {\n  return a - b;\n}\n\nexport function sub(a, b) {\n  return b - a;\n}\n");
  });

  test("numbered lines that are not the file's lines there: bad_patch that says to drop the numbers", async () => {
    const h = await readied({ "m.js": ADD }, "m.js");
    const { result } = await h.call(editFileTool, { path: "m.js", edits: [{ search: "5\t  return a - b;", replace: "x" }] });
    expect(codeOf(result)).toBe("bad_patch");
    expect(result.ok ? "" : result.error.message).toContain("line numbers");
    expect(onDisk(h, "m.js")).toBe(ADD);
  });

  test("precheck refuses a block that cannot apply, so nobody is asked to approve it", async () => {
    const h = await readied({ "m.js": ADD }, "m.js");
    expect((await editFileTool.precheck!({ path: "m.js", edits: [{ search: "zzz", replace: "" }] }, h.ctx()))?.code).toBe("bad_patch");
  });

  test("preview is the unified diff of the whole edit", async () => {
    const h = await readied({ "m.js": "a\nb\n" }, "m.js");
    const preview = await editFileTool.preview!({ path: "m.js", edits: [{ search: "b", replace: "c" }] }, h.ctx());
    expect(preview).toBe("===================================================================\n--- a/m.js\n+++ b/m.js\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n");
  });
});

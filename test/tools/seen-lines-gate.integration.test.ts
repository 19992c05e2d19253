import { readFileSync } from "node:fs";
import { join } from "node:path";
import { editFileTool } from "../../src/tools/edit-file.js";
import { readFileTool } from "../../src/tools/read-file.js";
import { writeFileTool } from "../../src/tools/write-file.js";
import { harnessFactory } from "./helpers/harness-factory.js";
import { codeOf, type ToolHarness } from "./helpers/tool-harness.js";

// 1,000 numbered lines: "line 1" … "line 1000"; a page of read_file is 300 of them.
const LONG = Array.from({ length: 1000 }, (_, i) => `line ${i + 1}`).join("\n") + "\n";
const errorOf = (r: { ok: boolean; error?: { message: string; details?: unknown } }) => (r.ok ? null : r.error!);

describe("edit context by the lines seen", () => {
  const make = harnessFactory();
  const onDisk = (h: ToolHarness) => readFileSync(join(h.workspace.root, "long.txt"), "utf8");

  test("an edit inside the page read goes ahead", async () => {
    const h = await make({ "long.txt": LONG });
    await h.call(readFileTool, { path: "long.txt" });
    const { result } = await h.call(editFileTool, { path: "long.txt", edits: [{ search: "line 120\n", replace: "line 120 fixed\n" }] });
    expect(result.ok).toBe(true);
    expect(onDisk(h)).toContain("line 120 fixed\nline 121\n");
  });

  test("an edit of lines never shown is refused, naming them and how to read them; nothing is written", async () => {
    const h = await make({ "long.txt": LONG });
    await h.call(readFileTool, { path: "long.txt" });
    const { result, events } = await h.call(editFileTool, { path: "long.txt", edits: [{ search: "line 749\nline 750\n", replace: "x\n" }] });
    expect(errorOf(result)).toEqual({
      code: "edit_without_read",
      message:
        "This change to long.txt depends on lines 749–750, which you have not been shown since it last changed (lines shown: 1–300). " +
        "Call read_file on long.txt with start_line 749 and end_line 750, then retry.",
      details: { path: "long.txt", reason: "lines_not_seen", missing: [[749, 750]], shown: [[1, 300]] },
    });
    expect(events ?? []).toEqual([]);
    expect(onDisk(h)).toBe(LONG);
  });

  test("a search text reaching past the page's end is refused for the lines past it only", async () => {
    const h = await make({ "long.txt": LONG });
    await h.call(readFileTool, { path: "long.txt" });
    const { result } = await h.call(editFileTool, { path: "long.txt", edits: [{ search: "line 299\nline 300\nline 301\n", replace: "x\n" }] });
    expect((errorOf(result)!.details as { missing: unknown }).missing).toEqual([[301, 301]]);
  });

  test("reading the lines named makes the same edit go ahead", async () => {
    const h = await make({ "long.txt": LONG });
    await h.call(readFileTool, { path: "long.txt" });
    const edits = [{ search: "line 750\n", replace: "line 750 fixed\n" }];
    expect(codeOf((await h.call(editFileTool, { path: "long.txt", edits })).result)).toBe("edit_without_read");
    await h.call(readFileTool, { path: "long.txt", start_line: 740, end_line: 760 });
    expect((await h.call(editFileTool, { path: "long.txt", edits })).result.ok).toBe(true);
  });

  test("after its own edit the agent still knows the lines it had seen, moved by the lines the edit added", async () => {
    const h = await make({ "long.txt": LONG });
    await h.call(readFileTool, { path: "long.txt" });
    await h.call(editFileTool, { path: "long.txt", edits: [{ search: "line 10\n", replace: "line 10\nnew a\nnew b\n" }] });
    expect(h.state.fileContexts["long.txt"]!.seen).toEqual([[1, 302]]);
    // line 300 is now line 302: still seen; line 301 (now 303) is not.
    expect((await h.call(editFileTool, { path: "long.txt", edits: [{ search: "line 300\n", replace: "line 300!\n" }] })).result.ok).toBe(true);
    expect(codeOf((await h.call(editFileTool, { path: "long.txt", edits: [{ search: "line 301\n", replace: "x\n" }] })).result)).toBe("edit_without_read");
  });

  test("write_file over an existing file needs every page: the refusal names the lines still unread", async () => {
    const h = await make({ "long.txt": LONG });
    await h.call(readFileTool, { path: "long.txt" });
    await h.call(readFileTool, { path: "long.txt", start_line: 601 });
    const { result } = await h.call(writeFileTool, { path: "long.txt", content: "replaced\n" });
    expect(errorOf(result)!.message).toBe(
      "This change to long.txt depends on lines 301–600, 901–1000, which you have not been shown since it last changed (lines shown: 1–300, 601–900). " +
        "Call read_file on long.txt with start_line 301 and end_line 600, and likewise 901–1000, then retry.",
    );
    expect(onDisk(h)).toBe(LONG);
    await h.call(readFileTool, { path: "long.txt", start_line: 301 });
    await h.call(readFileTool, { path: "long.txt", start_line: 901 });
    expect(h.state.fileContexts["long.txt"]!.seen).toEqual([[1, 1000]]);
    expect((await h.call(writeFileTool, { path: "long.txt", content: "replaced\n" })).result.ok).toBe(true);
  });

  test("what was seen of other content does not count: a page of changed content starts over", async () => {
    const h = await make({ "long.txt": LONG });
    await h.call(readFileTool, { path: "long.txt", start_line: 301 });
    h.push({ type: "file_read", path: "long.txt", hash: "0".repeat(64), lines: [1, 300], totalLines: 1000 });
    h.push({ type: "file_read", path: "long.txt", hash: "1".repeat(64), lines: [301, 600], totalLines: 1000 });
    expect(h.state.fileContexts["long.txt"]!.seen).toEqual([[301, 600]]);
  });
});

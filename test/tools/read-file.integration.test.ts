import { contentHash } from "../../src/policy/edit-context.js";
import { READ_PAGE_BYTES, READ_PAGE_LINES, readFileTool } from "../../src/tools/read-file.js";
import { harnessFactory } from "./helpers/harness-factory.js";
import { codeOf, dataOf } from "./helpers/tool-harness.js";

const FIVE = "one\ntwo\nthree\nfour\nfive\n";

describe("read_file", () => {
  const make = harnessFactory();
  const setup = (files: Parameters<typeof make>[0]) => make(files, { mode: "plan" });

  test("returns numbered lines, total_lines and a note of what it showed", async () => {
    const h = await setup({ "a.txt": FIVE });
    const { result } = await h.call(readFileTool, { path: "a.txt" });
    expect(result).toEqual({
      ok: true,
      data: {
        path: "a.txt",
        note: "lines 1–5 of 5 (end of file)",
        start_line: 1,
        end_line: 5,
        total_lines: 5,
        content: "1│one\n2│two\n3│three\n4│four\n5│five",
      },
    });
  });

  test("a range returns only those lines", async () => {
    const h = await setup({ "a.txt": FIVE });
    const data = dataOf((await h.call(readFileTool, { path: "a.txt", start_line: 2, end_line: 3 })).result);
    expect(data).toEqual({
      path: "a.txt",
      note: "lines 2–3 of 5; next page: read_file with start_line 4",
      start_line: 2,
      end_line: 3,
      total_lines: 5,
      content: "2│two\n3│three",
      next_start_line: 4,
    });
  });

  test("end_line past the end is clamped", async () => {
    const h = await setup({ "a.txt": FIVE });
    const data = dataOf((await h.call(readFileTool, { path: "a.txt", start_line: 4, end_line: 99 })).result);
    expect(data).toEqual({ path: "a.txt", note: "lines 4–5 of 5 (end of file)", start_line: 4, end_line: 5, total_lines: 5, content: "4│four\n5│five" });
  });

  test("start_line past the end is an invalid_arguments error", async () => {
    const h = await setup({ "a.txt": FIVE });
    expect(codeOf((await h.call(readFileTool, { path: "a.txt", start_line: 6 })).result)).toBe("invalid_arguments");
  });

  test("start_line after end_line is refused in precheck", async () => {
    const h = await setup({ "a.txt": FIVE });
    const err = await readFileTool.precheck!({ path: "a.txt", start_line: 3, end_line: 2 }, h.ctx());
    expect(err).toEqual({ code: "invalid_arguments", message: "start_line 3 is after end_line 2." });
  });

  test("emits file_read with the hash of the whole file and the lines shown, even for a range", async () => {
    const h = await setup({ "a.txt": FIVE });
    const { events } = await h.call(readFileTool, { path: "a.txt", start_line: 2, end_line: 2 });
    expect(events).toEqual([{ type: "file_read", path: "a.txt", hash: contentHash(FIVE), lines: [2, 2], totalLines: 5 }]);
    expect(h.state.fileContexts["a.txt"]).toEqual({ hash: contentHash(FIVE), step: 0, seen: [[2, 2]] });
  });

  test("pages of the same content add up; once every line was shown the file counts as read whole", async () => {
    const h = await setup({ "a.txt": FIVE });
    await h.call(readFileTool, { path: "a.txt", start_line: 4 });
    await h.call(readFileTool, { path: "a.txt", start_line: 1, end_line: 2 });
    expect(h.state.fileContexts["a.txt"]!.seen).toEqual([
      [1, 2],
      [4, 5],
    ]);
    await h.call(readFileTool, { path: "a.txt", start_line: 3, end_line: 3 });
    expect(h.state.fileContexts["a.txt"]!.seen).toEqual([[1, 5]]);
    await h.call(readFileTool, { path: "a.txt" });
    expect(h.state.fileContexts["a.txt"]).toEqual({ hash: contentHash(FIVE), step: 0 });
  });

  test("a NUL byte in the first 8 KB is refused as binary_file, and nothing is recorded", async () => {
    const h = await setup({ "img.bin": Buffer.from([0x89, 0x50, 0x00, 0x47]) });
    const { result, events } = await h.call(readFileTool, { path: "img.bin" });
    expect(result).toEqual({
      ok: false,
      error: { code: "binary_file", message: "img.bin is a binary file; read_file only shows text.", details: { path: "img.bin", bytes: 4 } },
    });
    expect(events).toEqual([]);
  });

  test("a long file is read a page at a time: at most 300 lines, each page saying where the next starts", async () => {
    const lines = Array.from({ length: 700 }, (_, i) => `line ${i + 1}`);
    const h = await setup({ "long.txt": `${lines.join("\n")}\n` });
    const first = dataOf((await h.call(readFileTool, { path: "long.txt" })).result);
    expect([first.start_line, first.end_line, first.total_lines, first.next_start_line, first.note]).toEqual([
      1,
      READ_PAGE_LINES,
      700,
      301,
      "lines 1–300 of 700; next page: read_file with start_line 301",
    ]);
    expect(String(first.content).split("\n")).toHaveLength(300);
    const asked = dataOf((await h.call(readFileTool, { path: "long.txt", start_line: 301, end_line: 700 })).result);
    expect([asked.end_line, asked.next_start_line]).toEqual([600, 601]);
    const last = dataOf((await h.call(readFileTool, { path: "long.txt", start_line: 601 })).result);
    expect([last.end_line, last.next_start_line, last.note]).toEqual([700, undefined, "lines 601–700 of 700 (end of file)"]);
    expect(String(last.content).split("\n").at(-1)).toBe("700│line 700");
  });

  test("a page is also bounded in bytes: cut at a line boundary, marked truncated, with next_start_line", async () => {
    const line = "y".repeat(1023) + "\n";
    const h = await setup({ "big.txt": line.repeat(300) });
    const { result } = await h.call(readFileTool, { path: "big.txt", start_line: 1, end_line: 300 });
    expect(result.ok && result.truncated).toBe(true);
    const data = dataOf(result);
    expect([data.end_line, data.next_start_line, data.total_lines]).toEqual([READ_PAGE_BYTES / 1024, 33, 300]);
  });

  test("a file of any size gives its first page (no whole-file refusal)", async () => {
    const h = await setup({ "huge.txt": `${"z".repeat(99)}\n`.repeat(5000) });
    const data = dataOf((await h.call(readFileTool, { path: "huge.txt" })).result);
    expect([data.start_line, data.end_line, data.total_lines]).toEqual([1, 300, 5000]);
  });

  test("a line longer than a page is shown cut and does not count as read", async () => {
    const h = await setup({ "min.js": `short\n${"m".repeat(100_000)}\nafter\n` });
    const { result, events } = await h.call(readFileTool, { path: "min.js", start_line: 2 });
    const data = dataOf(result);
    expect(Buffer.byteLength(String(data.content))).toBeLessThanOrEqual(READ_PAGE_BYTES + 8);
    expect([data.end_line, data.next_start_line]).toEqual([2, 3]);
    expect(data.note).toBe(
      "lines 2–2 of 3; next page: read_file with start_line 3. Line 2 is 100000 bytes long: only its first 32 KB are shown and it does not count as read (search_code finds text inside it)",
    );
    expect(events).toEqual([{ type: "file_read", path: "min.js", hash: expect.any(String), lines: [2, 1], totalLines: 3 }]);
    expect(h.state.fileContexts["min.js"]!.seen).toEqual([]);
  });

  test("a missing file is file_not_found", async () => {
    const h = await setup({ "a.txt": FIVE });
    expect(codeOf((await h.call(readFileTool, { path: "nope.txt" })).result)).toBe("file_not_found");
  });

  test("a directory is not_a_file", async () => {
    const h = await setup({ "src/a.txt": FIVE });
    expect(codeOf((await h.call(readFileTool, { path: "src" })).result)).toBe("not_a_file");
  });

  test("an empty file reads as zero lines", async () => {
    const h = await setup({ "empty.txt": "" });
    expect(dataOf((await h.call(readFileTool, { path: "empty.txt" })).result)).toEqual({
      path: "empty.txt",
      note: "the file is empty",
      start_line: 1,
      end_line: 0,
      total_lines: 0,
      content: "",
    });
  });

  test("CRLF line ends are not shown as part of the line", async () => {
    const h = await setup({ "w.txt": "a\r\nb\r\n" });
    expect(dataOf((await h.call(readFileTool, { path: "w.txt" })).result).content).toBe("1│a\n2│b");
  });

  test("`..` escapes are path_denied", async () => {
    const h = await setup({ "a.txt": FIVE });
    expect(codeOf((await h.call(readFileTool, { path: "../etc/passwd" })).result)).toBe("path_denied");
  });

  test("a symlink leading out of the workspace is path_denied", async () => {
    const h = await setup({ out: { symlink: "/etc/hostname" } });
    expect(codeOf((await h.call(readFileTool, { path: "out" })).result)).toBe("path_denied");
  });

  test("files inside .git are path_denied", async () => {
    const h = await setup({ "a.txt": FIVE });
    expect(codeOf((await h.call(readFileTool, { path: ".git/config" })).result)).toBe("path_denied");
  });

  test("a symlink inside the workspace reads (and records) its target's path", async () => {
    const h = await setup({ "real.txt": FIVE, "link.txt": { symlink: "real.txt" } });
    const { result, events } = await h.call(readFileTool, { path: "link.txt", end_line: 1 });
    expect(dataOf(result).path).toBe("real.txt");
    expect(events).toEqual([{ type: "file_read", path: "real.txt", hash: contentHash(FIVE), lines: [1, 1], totalLines: 5 }]);
  });

  test("request uses the normalised relative path", () => {
    expect(readFileTool.request({ path: "./src//a.ts" }, undefined as never)).toEqual({ kind: "read", tool: "read_file", path: "src/a.ts" });
  });
});

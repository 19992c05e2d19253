import { contentHash } from "../../src/policy/index.js";
import { READ_MAX_BYTES, readFileTool } from "../../src/tools/read-file.js";
import { harnessFactory } from "./helpers/harness-factory.js";
import { codeOf, dataOf } from "./helpers/tool-harness.js";

const FIVE = "one\ntwo\nthree\nfour\nfive\n";

describe("read_file", () => {
  const make = harnessFactory();
  const setup = (files: Parameters<typeof make>[0]) => make(files, { mode: "plan" });

  test("returns numbered lines and total_lines", async () => {
    const h = await setup({ "a.txt": FIVE });
    const { result } = await h.call(readFileTool, { path: "a.txt" });
    expect(result).toEqual({
      ok: true,
      data: { path: "a.txt", start_line: 1, end_line: 5, total_lines: 5, content: "1\tone\n2\ttwo\n3\tthree\n4\tfour\n5\tfive" },
    });
  });

  test("a range returns only those lines", async () => {
    const h = await setup({ "a.txt": FIVE });
    const data = dataOf((await h.call(readFileTool, { path: "a.txt", start_line: 2, end_line: 3 })).result);
    expect(data).toEqual({ path: "a.txt", start_line: 2, end_line: 3, total_lines: 5, content: "2\ttwo\n3\tthree" });
  });

  test("end_line past the end is clamped", async () => {
    const h = await setup({ "a.txt": FIVE });
    const data = dataOf((await h.call(readFileTool, { path: "a.txt", start_line: 4, end_line: 99 })).result);
    expect(data).toEqual({ path: "a.txt", start_line: 4, end_line: 5, total_lines: 5, content: "4\tfour\n5\tfive" });
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

  test("emits file_read with the hash of the whole file, even for a range", async () => {
    const h = await setup({ "a.txt": FIVE });
    const { events } = await h.call(readFileTool, { path: "a.txt", start_line: 2, end_line: 2 });
    expect(events).toEqual([{ type: "file_read", path: "a.txt", hash: contentHash(FIVE) }]);
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

  test("a file over 256 KB must be read with a range", async () => {
    const line = "x".repeat(99) + "\n";
    const big = line.repeat(Math.ceil(READ_MAX_BYTES / 100) + 10);
    const h = await setup({ "big.txt": big });
    const whole = (await h.call(readFileTool, { path: "big.txt" })).result;
    expect(codeOf(whole)).toBe("file_too_large");
    const part = dataOf((await h.call(readFileTool, { path: "big.txt", start_line: 10, end_line: 11 })).result);
    expect(part.content).toBe(`10\t${"x".repeat(99)}\n11\t${"x".repeat(99)}`);
  });

  test("a range whose output exceeds the cap is cut at a line boundary with next_start_line", async () => {
    const line = "y".repeat(1023) + "\n";
    const h = await setup({ "big.txt": line.repeat(300) });
    const { result } = await h.call(readFileTool, { path: "big.txt", start_line: 1, end_line: 300 });
    expect(result.ok && result.truncated).toBe(true);
    const data = dataOf(result);
    expect([data.end_line, data.next_start_line, data.total_lines]).toEqual([256, 257, 300]);
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
    expect(dataOf((await h.call(readFileTool, { path: "empty.txt" })).result)).toEqual({ path: "empty.txt", start_line: 1, end_line: 0, total_lines: 0, content: "" });
  });

  test("CRLF line ends are not shown as part of the line", async () => {
    const h = await setup({ "w.txt": "a\r\nb\r\n" });
    expect(dataOf((await h.call(readFileTool, { path: "w.txt" })).result).content).toBe("1\ta\n2\tb");
  });

  test("`..` escapes are path_denied", async () => {
    const h = await setup({ "a.txt": FIVE });
    expect(codeOf((await h.call(readFileTool, { path: "../etc/passwd" })).result)).toBe("path_denied");
  });

  test("a symlink leading out of the workspace is path_denied", async () => {
    const h = await setup({ "out": { symlink: "/etc/hostname" } });
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
    expect(events).toEqual([{ type: "file_read", path: "real.txt", hash: contentHash(FIVE) }]);
  });

  test("request uses the normalised relative path", () => {
    expect(readFileTool.request({ path: "./src//a.ts" }, undefined as never)).toEqual({ kind: "read", tool: "read_file", path: "src/a.ts" });
  });
});

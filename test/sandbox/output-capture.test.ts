import { HeadTailCapture, LineSplitter, MAX_STREAMED_LINE } from "../../src/sandbox/output-capture.js";

describe("HeadTailCapture", () => {
  test("under the cap everything is kept, untruncated", () => {
    const c = new HeadTailCapture(10);
    c.push(Buffer.from("abc"));
    c.push(Buffer.from("def"));
    expect({ text: c.text(), truncated: c.truncated }).toEqual({ text: "abcdef", truncated: false });
  });

  test("exactly at the cap nothing is dropped", () => {
    const c = new HeadTailCapture(6);
    c.push(Buffer.from("abcdef"));
    expect({ text: c.text(), truncated: c.truncated }).toEqual({ text: "abcdef", truncated: false });
  });

  test("over the cap the first and last halves are kept, and the gap is counted", () => {
    const c = new HeadTailCapture(6);
    for (const chunk of ["ab", "cdef", "ghij", "k"]) c.push(Buffer.from(chunk));
    expect({ text: c.text(), truncated: c.truncated }).toEqual({ text: "abc\n[… 5 bytes of output omitted …]\nijk", truncated: true });
  });

  test("one huge chunk is split between head and tail", () => {
    const c = new HeadTailCapture(4);
    c.push(Buffer.from("0123456789"));
    expect(c.text()).toBe("01\n[… 6 bytes of output omitted …]\n89");
  });
});

describe("LineSplitter", () => {
  function split(chunks: string[]): string[] {
    const lines: string[] = [];
    const s = new LineSplitter((l) => lines.push(l));
    for (const c of chunks) s.push(c);
    s.end();
    return lines;
  }

  test("lines split across chunks are joined; CRLF is trimmed; empty lines are kept", () => {
    expect(split(["one\ntw", "o\r\n\nthr", "ee"])).toEqual(["one", "two", "", "three"]);
  });

  test("nothing is emitted for a stream that ends with a newline beyond its lines", () => {
    expect(split(["a\n"])).toEqual(["a"]);
  });

  test("a line longer than the streaming limit arrives in pieces, none lost", () => {
    const long = "x".repeat(MAX_STREAMED_LINE * 2 + 5);
    const lines = split([long.slice(0, 100), `${long.slice(100)}\nend\n`]);
    expect(lines.map((l) => l.length)).toEqual([MAX_STREAMED_LINE, MAX_STREAMED_LINE, 5, 3]);
    expect(lines.join("")).toBe(`${long}end`);
  });
});

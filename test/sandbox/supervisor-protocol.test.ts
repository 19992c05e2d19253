import { FencedStream } from "../../src/sandbox/output-fence.js";
import { encodeRequest, exitCodeOf, parseReport } from "../../src/sandbox/supervisor-protocol.js";

const FENCE = "ab".repeat(16);

function fenced(chunks: string[]): { got: string[]; reached: number; stray: string } {
  const s = new FencedStream();
  const got: string[] = [];
  let reached = 0;
  s.begin(
    FENCE,
    (c) => got.push(c.toString()),
    () => reached++,
  );
  for (const c of chunks) s.push(Buffer.from(c));
  return { got, reached, stray: s.stray };
}

describe("the long-lived sandbox's protocol", () => {
  test("output up to the fence is the command's, even when the fence is split across chunks", () => {
    const r = fenced(["out\n\0ab", "abab", `${"ab".repeat(13)}\0`]);
    expect({ text: r.got.join(""), reached: r.reached }).toEqual({ text: "out\n", reached: 1 });
  });

  test("a line is passed on at once unless its end could be the fence's start", () => {
    expect(fenced(["first\n"]).got).toEqual(["first\n"]);
    expect(fenced(["x\0a"]).got).toEqual(["x"]);
  });

  test("a fence-like run of bytes that is not this command's fence is output", () => {
    const r = fenced([`a\0${"f".repeat(32)}\0b`, `\0${FENCE}\0`]);
    expect({ text: r.got.join(""), reached: r.reached }).toEqual({ text: `a\0${"f".repeat(32)}\0b`, reached: 1 });
  });

  test("bytes while no command runs are stray, never a command's", () => {
    const s = new FencedStream();
    s.push(Buffer.from("bwrap: setting up uid map: Permission denied\n"));
    expect(s.stray).toBe("bwrap: setting up uid map: Permission denied\n");
  });

  test("a request is length-prefixed NUL-separated fields; a NUL inside a field is refused", () => {
    const req = encodeRequest({ fence: FENCE, cwd: "/workspace", env: { A: "1", B: "x=y" }, argv: ["sh", "-c", "echo hi"] });
    const text = req.toString();
    const [len, payload] = [text.slice(0, text.indexOf("\n")), text.slice(text.indexOf("\n") + 1)];
    expect(Number(len)).toBe(Buffer.byteLength(payload));
    expect(payload.split("\0")).toEqual([FENCE, "/workspace", "2", "A=1", "B=x=y", "sh", "-c", "echo hi"]);
    expect(() => encodeRequest({ fence: FENCE, cwd: "/", env: {}, argv: ["a\0b"] })).toThrow("NUL");
  });

  test("reports: only a well-formed done line counts; wait statuses read as bwrap reports them", () => {
    expect(parseReport(`done ${FENCE} 768 1`)).toEqual({ fence: FENCE, status: 768, clean: true });
    expect(parseReport(`done ${FENCE} -1 0`)).toEqual({ fence: FENCE, status: -1, clean: false });
    expect([parseReport("done x 0 1"), parseReport(`done ${FENCE} 0 1 extra`), parseReport("ready")]).toEqual([null, null, null]);
    // exit 3; killed by SIGSEGV (11); by SIGXCPU (24)
    expect([exitCodeOf(3 << 8), exitCodeOf(11), exitCodeOf(24)]).toEqual([3, 139, 152]);
  });
});

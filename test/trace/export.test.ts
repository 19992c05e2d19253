import { exportTrace, parseJsonlTrace } from "../../src/trace/export.js";
import { SessionScript } from "./fixtures/session-script.js";

describe("exportTrace", () => {
  const s = new SessionScript("sess-x").executing().toolStep("read_file", { path: "a.ts" }, "line 1\nline 2");

  it("jsonl: one event per line, every event, same content", () => {
    const out = exportTrace(s.events, "jsonl");
    const lines = out.split("\n");
    expect(lines).toHaveLength(s.events.length + 1);
    expect(lines.at(-1)).toBe("");
    expect(parseJsonlTrace(out)).toEqual(s.events);
  });

  it("json: one array, pretty-printed, same content", () => {
    const out = exportTrace(s.events, "json");
    expect(out.startsWith("[\n  {\n")).toBe(true);
    expect(JSON.parse(out)).toEqual(s.events);
  });

  it("does not modify the events it redacts", () => {
    const secret = "the-webhook-secret";
    const leaky = new SessionScript("sess-y").executing().add({ type: "user_message", content: `x ${secret}` });
    const before = structuredClone(leaky.events);
    const out = parseJsonlTrace(exportTrace(leaky.events, "jsonl", [secret]));
    expect(out.at(-1)).toEqual({ ...leaky.events.at(-1), content: "x [REDACTED:secret]" });
    expect(leaky.events).toEqual(before);
  });

  it("names the bad line when reading a broken JSONL trace", () => {
    expect(() => parseJsonlTrace('{"seq":0}\n{oops\n')).toThrow(/trace line 2 is not JSON/);
  });
});

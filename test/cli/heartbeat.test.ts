import { PassThrough } from "node:stream";
import { heartbeat } from "../../src/cli/heartbeat.js";

function screen(isTTY: boolean): { stream: PassThrough; text: () => string; next: (pattern: RegExp) => Promise<void> } {
  const stream = Object.assign(new PassThrough(), { isTTY });
  let text = "";
  const waiters: { pattern: RegExp; resolve: () => void }[] = [];
  stream.on("data", (b: Buffer) => {
    text += b.toString();
    for (const w of waiters.splice(0)) (w.pattern.test(text) ? w.resolve : () => waiters.push(w))();
  });
  return { stream, text: () => text, next: (pattern) => new Promise((resolve) => waiters.push({ pattern, resolve })) };
}

describe("heartbeat", () => {
  const saved = process.env.PATCHGATE_HEARTBEAT_MS;
  beforeAll(() => (process.env.PATCHGATE_HEARTBEAT_MS = "20"));
  afterAll(() => (saved === undefined ? delete process.env.PATCHGATE_HEARTBEAT_MS : (process.env.PATCHGATE_HEARTBEAT_MS = saved)));

  test("on a terminal: one status line redrawn in place, cleared before any other output", async () => {
    const s = screen(true);
    const hb = heartbeat(s.stream);
    hb.doing("step 3: setup and tests");
    await s.next(/… step 3: setup and tests \(\d+ s\)/);
    hb.out.write("event line\n");
    hb.stop();
    const text = s.text();
    expect(text.startsWith("\r\x1b[K… step 3: setup and tests (")).toBe(true);
    expect(text.endsWith("\r\x1b[Kevent line\n")).toBe(true);
    expect(text).not.toContain("\n…");
  });

  test("in a pipe or a log: nothing but the output itself", async () => {
    const s = screen(false);
    const hb = heartbeat(s.stream);
    expect(hb.out).toBe(s.stream);
    hb.doing("cloning");
    hb.out.write("a\n");
    await new Promise<void>((resolve) => setImmediate(resolve));
    hb.stop();
    expect(s.text()).toBe("a\n");
  });
});

import { capText } from "../../../src/safety/byte-limit.js";
import { utf8Bytes } from "../../../src/safety/byte-limit.js";

describe("capText", () => {
  it("returns text that fits unchanged", () => {
    expect(capText("hello", 5)).toEqual({ text: "hello", truncated: false });
  });

  it("keeps 60% head and the rest tail around a marker that counts what was cut", () => {
    const text = `${"a".repeat(500)}${"b".repeat(500)}`;
    const out = capText(text, 200);
    // Marker sized for the total: "\n…[truncated: 1000 of 1000 bytes omitted]…\n" = 47 bytes; 153 remain: 91 head, 62 tail.
    expect(out).toEqual({ text: `${"a".repeat(91)}\n…[truncated: 847 of 1000 bytes omitted]…\n${"b".repeat(62)}`, truncated: true });
    expect(utf8Bytes(out.text)).toBeLessThanOrEqual(200);
  });

  it("stays within the byte budget and splits no code point, for emoji at every budget", () => {
    const text = "👨‍👩‍👧‍👦😀é".repeat(300);
    for (let max = 0; max < 400; max += 7) {
      const out = capText(text, max);
      expect(out.truncated).toBe(true);
      expect(utf8Bytes(out.text)).toBeLessThanOrEqual(max);
      expect(Buffer.from(out.text).toString("utf8")).toBe(out.text);
      expect(out.text.includes("\uFFFD")).toBe(false);
    }
  });
});

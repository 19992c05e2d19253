import { headUtf8, tailUtf8, truncateUtf8, utf8Bytes, wellFormed } from "../../src/safety/byte-limit.js";

/** Valid UTF-8 with no replacement characters introduced: decoding the encoding gives the string back. */
function roundTrips(s: string): boolean {
  return Buffer.from(s, "utf8").toString("utf8") === s && !s.includes("\uFFFD");
}

// 1-, 2-, 3- and 4-byte characters plus a ZWJ family and a flag (multi-code-point graphemes).
const MIXED = "a é € 😀 👨‍👩‍👧‍👦 🇫🇷 ";

describe("headUtf8 / tailUtf8 / truncateUtf8", () => {
  it("never splits a code point at any limit", () => {
    const text = MIXED.repeat(20);
    for (let max = 0; max <= utf8Bytes(text) + 2; max++) {
      const head = headUtf8(text, max);
      const tail = tailUtf8(text, max);
      const cut = truncateUtf8(text, max, "…");
      for (const part of [head, tail, cut]) {
        expect(utf8Bytes(part)).toBeLessThanOrEqual(max);
        expect(roundTrips(part)).toBe(true);
      }
      expect(text.startsWith(head)).toBe(true);
      expect(text.endsWith(tail)).toBe(true);
    }
  });

  it("keeps as much as fits: a 4-byte character is dropped whole, not in part", () => {
    expect(headUtf8("ab😀", 5)).toBe("ab");
    expect(headUtf8("ab😀", 6)).toBe("ab😀");
    expect(tailUtf8("😀ab", 5)).toBe("ab");
  });

  it("returns the text unchanged when it fits, and head + marker when not", () => {
    expect(truncateUtf8("short", 10)).toBe("short");
    expect(truncateUtf8("0123456789abc", 10, "[cut]")).toBe("01234[cut]");
  });

  it("cuts the marker itself when the budget is smaller than the marker", () => {
    expect(truncateUtf8("0123456789", 3, "[cut]")).toBe("[cu");
  });

  it("replaces lone surrogates so the output is well-formed", () => {
    expect(wellFormed("a\uD800b\uDC00c😀")).toBe("a\uFFFDb\uFFFDc😀");
    expect(truncateUtf8("x\uD83D", 100)).toBe("x\uFFFD");
  });
});

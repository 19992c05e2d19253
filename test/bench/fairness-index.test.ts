import { fairShares, jainIndex, windowIndices } from "../../bench/fairness-index.js";

describe("Jain's fairness index", () => {
  test("1 when every tenant got the same, 1/n when one got everything", () => {
    expect(jainIndex([5, 5, 5, 5])).toBe(1);
    expect(jainIndex([20, 0, 0, 0])).toBeCloseTo(0.25, 12);
    // (1+2+3)² / (3 · 14) = 36 / 42
    expect(jainIndex([1, 2, 3])).toBeCloseTo(36 / 42, 12);
  });

  test("no tenants is an error, never a number", () => {
    expect(() => jainIndex([])).toThrow("no tenants");
  });
});

describe("max-min fair shares of a window", () => {
  test("equal parts while every installation has enough left", () => {
    expect(
      Object.fromEntries(
        fairShares(
          new Map([
            ["a", 50],
            ["b", 50],
          ]),
          10,
        ),
      ),
    ).toEqual({ a: 5, b: 5 });
  });

  test("one with fewer left is owed only those; the rest goes to the others", () => {
    expect(
      Object.fromEntries(
        fairShares(
          new Map([
            ["big", 500],
            ["s1", 1],
            ["s2", 3],
            ["done", 0],
          ]),
          10,
        ),
      ),
    ).toEqual({ big: 6, s1: 1, s2: 3 });
  });
});

describe("the index in every window of starts", () => {
  const queued = new Map([
    ["big", 8],
    ["a", 2],
    ["b", 2],
  ]);

  test("round robin while all wait, then the one left takes the rest: fair throughout", () => {
    const starts = ["big", "a", "b", "big", "a", "b", "big", "big", "big", "big", "big", "big"];
    expect(windowIndices(starts, queued, 6)).toEqual([1, 1]);
  });

  test("the big installation first: its window is unfair to the two it kept waiting", () => {
    const starts = ["big", "big", "big", "big", "big", "big", "big", "big", "a", "a", "b", "b"];
    const [first, second] = windowIndices(starts, queued, 6);
    // Shares 2, 2, 2; got 6, 0, 0: (6/2)² over 3 · (6/2)² = 1/3.
    expect(first).toBeCloseTo(1 / 3, 12);
    // Then 2 left each, 2 started each: that window is fair again.
    expect(second).toBe(1);
  });

  test("a start of an installation that queued nothing is an error", () => {
    expect(() => windowIndices(["zzz"], queued, 1)).toThrow("installation zzz started a session it had not queued");
  });
});

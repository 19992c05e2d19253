import { addRange, formatRanges, lineCount, seenAfterEdit, unseen } from "../../src/session/seen-lines.js";

describe("seen lines", () => {
  test("addRange merges overlapping and touching ranges and keeps them sorted", () => {
    expect(addRange([], [5, 9])).toEqual([[5, 9]]);
    expect(addRange([[5, 9]], [1, 3])).toEqual([
      [1, 3],
      [5, 9],
    ]);
    expect(
      addRange(
        [
          [1, 3],
          [5, 9],
        ],
        [4, 4],
      ),
    ).toEqual([[1, 9]]);
    expect(addRange([[1, 3]], [2, 20])).toEqual([[1, 20]]);
    expect(addRange([[1, 3]], [5, 4])).toEqual([[1, 3]]);
  });

  test("unseen: the parts of what is needed outside what was seen", () => {
    expect(unseen([[1, 300]], [[10, 12]])).toEqual([]);
    expect(unseen([[1, 300]], [[299, 305]])).toEqual([[301, 305]]);
    expect(
      unseen(
        [
          [1, 10],
          [20, 30],
        ],
        [[5, 25]],
      ),
    ).toEqual([[11, 19]]);
    expect(
      unseen(
        [
          [1, 300],
          [601, 900],
        ],
        [[1, 1000]],
      ),
    ).toEqual([
      [301, 600],
      [901, 1000],
    ]);
    expect(
      unseen(
        [],
        [
          [3, 4],
          [4, 6],
        ],
      ),
    ).toEqual([[3, 6]]);
  });

  test("formatRanges and lineCount", () => {
    expect(
      formatRanges([
        [1, 300],
        [2500, 2500],
      ]),
    ).toBe("1–300, 2500");
    expect([lineCount(""), lineCount("a"), lineCount("a\n"), lineCount("a\nb"), lineCount("a\n\n")]).toEqual([0, 1, 1, 2, 2]);
  });

  test("after an edit: lines seen below it move by the lines it added or removed, and what it wrote is seen", () => {
    // Lines 10–12 became 10–15 (3 lines more): 1–300 seen before is now 1–303, and 601–900 is 604–903.
    expect(
      seenAfterEdit(
        [
          [1, 300],
          [601, 900],
        ],
        [{ old: [10, 12], new: [10, 15] }],
      ),
    ).toEqual([
      [1, 303],
      [604, 903],
    ]);
    // Two lines removed above the second range.
    expect(
      seenAfterEdit(
        [
          [1, 5],
          [20, 30],
        ],
        [{ old: [3, 4], new: [3, 2] }],
      ),
    ).toEqual([
      [1, 3],
      [18, 28],
    ]);
  });

  test("after an edit: the edited lines are seen even where the lines around them were not", () => {
    expect(seenAfterEdit([[2490, 2510]], [{ old: [2500, 2500], new: [2500, 2501] }])).toEqual([[2490, 2511]]);
    expect(seenAfterEdit([], [{ old: [7, 7], new: [7, 9] }])).toEqual([[7, 9]]);
  });

  test("after an edit: two regions, lines between and after them shifted by the regions before", () => {
    const regions = [
      { old: [5, 5] as [number, number], new: [5, 7] as [number, number] }, // +2
      { old: [20, 22] as [number, number], new: [22, 22] as [number, number] }, // -2
    ];
    expect(
      seenAfterEdit(
        [
          [10, 15],
          [30, 40],
        ],
        regions,
      ),
    ).toEqual([
      [5, 7],
      [12, 17],
      [22, 22],
      [30, 40],
    ]);
  });
});

import { closestRegion } from "../../src/tools/support/closest-region.js";

describe("closestRegion", () => {
  const FILE = "alpha\nbeta\ngamma\ndelta\nepsilon\n";

  test("finds the window most like the search block, with 1-based lines", () => {
    expect(closestRegion(FILE, "gamma\ndelte\n")).toEqual({ start_line: 3, end_line: 4, similarity: 0.88, text: "3│gamma\n4│delta", whitespace_only: false });
  });

  test("flags a block that differs only in indentation", () => {
    expect(closestRegion("  if (x) {\n    y();\n  }\n", "if (x) {\n  y();\n}")).toMatchObject({
      start_line: 1,
      end_line: 3,
      similarity: 1,
      whitespace_only: true,
    });
  });

  test("a block taller than the file compares against the whole file", () => {
    expect(closestRegion("a\n", "a\nb\nc\n")).toMatchObject({ start_line: 1, end_line: 1 });
  });

  // The comparison runs on Patchgate's event loop and grows with (file lines × block lines).
  test("a huge block against a huge file gives no hint instead of blocking for seconds", () => {
    const file = Array.from({ length: 6000 }, (_, i) => `line number ${i} with some text`).join("\n");
    const search = Array.from({ length: 3000 }, (_, i) => `other ${i} words here`).join("\n");
    // No timing assertion (the machine is shared): a quadratic search here would outlast jest's timeout.
    expect(closestRegion(file, search)).toBeNull();
  });

  test("an empty file has no region", () => {
    expect(closestRegion("", "x")).toBeNull();
  });

  test("stays fast on a large file", () => {
    const big = Array.from({ length: 20000 }, (_, i) => `const value${i} = compute(${i}, "some text here");`).join("\n");
    // As above: the bound is jest's timeout, not a wall-clock assertion that fails under load.
    const r = closestRegion(big, 'const value12345 = compute(12345, "some text hare");\nconst value12346 = compute(12346, "some text here");');
    expect(r?.start_line).toBe(12346);
  });
});

import { looksNumbered, withoutReadNumbers } from "../../src/tools/support/read-numbers.js";

const FILE = "a\nb\nc\nb\n";

describe("read_file's line numbers copied into an edit", () => {
  test("consecutive numbers whose lines are there: the block without them, at that line", () => {
    expect(withoutReadNumbers(FILE, "3\tc\n4\tb", "3\tC\n4\tB")).toEqual({ search: "c\nb", replace: "C\nB", start: 4 });
  });

  test("read_file 3's form: padded numbers and │, content tabs kept; the tab form of older results still read", () => {
    const tabbed = "a\n\tb\n\t\tc\n";
    expect(withoutReadNumbers(tabbed, " 2│\tb\n 3│\t\tc", " 2│\tB\n 3│\t\tC")).toEqual({ search: "\tb\n\t\tc", replace: "\tB\n\t\tC", start: 2 });
    expect(withoutReadNumbers(tabbed, "2\t\tb", "x")).toEqual({ search: "\tb", replace: "x", start: 2 });
    expect(looksNumbered("  975│x")).toBe(true);
  });

  test("the numbers pick the place even where the text alone is ambiguous", () => {
    expect(withoutReadNumbers(FILE, "4\tb\n", "4\tx\n")).toEqual({ search: "b\n", replace: "x\n", start: 6 });
    expect(withoutReadNumbers(FILE, "2\tb", "y")).toEqual({ search: "b", replace: "y", start: 2 });
  });

  test("a replace without numbers is kept as it is", () => {
    expect(withoutReadNumbers(FILE, "1\ta", "1 a")?.replace).toBe("1 a");
  });

  test("not taken: a line without a number, gaps, wrong lines, past the end, line 0", () => {
    expect(withoutReadNumbers(FILE, "1\ta\nb", "")).toBeNull();
    expect(withoutReadNumbers(FILE, "1\ta\n3\tc", "")).toBeNull();
    expect(withoutReadNumbers(FILE, "1\tb", "")).toBeNull();
    expect(withoutReadNumbers(FILE, "9\ta", "")).toBeNull();
    expect(withoutReadNumbers(FILE, "0\ta", "")).toBeNull();
    expect(withoutReadNumbers(FILE, "", "")).toBeNull();
  });

  test("CRLF files: the block in the file's line ends", () => {
    expect(withoutReadNumbers("a\r\nb\r\n", "1\ta\n2\tb", "1\tx\n2\ty")).toEqual({ search: "a\r\nb", replace: "x\r\ny", start: 0 });
  });

  test("looksNumbered: every line numbered", () => {
    expect([looksNumbered("7\tx\n8\ty"), looksNumbered("x\n8\ty"), looksNumbered("7 x")]).toEqual([true, false, false]);
  });
});

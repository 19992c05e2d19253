import { parseTestFailures } from "../../../src/sandbox/test-report/parse.js";
import { PLAIN, COLOURED_VERBOSE, LOAD_ERROR } from "./outputs/vitest.js";

const EXPECTED = [
  { name: "math > subtracts", file: "math.test.js", message: "AssertionError: expected 2 to be 3 // Object.is equality", location: "math.test.js:4:41" },
  {
    name: "math > nested > multiplies",
    file: "math.test.js",
    message: "AssertionError: expected { a: 6 } to deeply equal { a: 7 }",
    location: "math.test.js:6:51",
  },
  { name: "other > throws", file: "math.test.js", message: "Error: boom at top", location: "math.test.js:10:30" },
];

describe("vitest output", () => {
  test("each FAIL block: the full name, the error line without its diff, the ❯ location, totals", () => {
    expect(parseTestFailures(PLAIN)).toEqual({ framework: "vitest", failures: EXPECTED, totals: { passed: 2, failed: 3, total: 5 } });
  });

  test("colour codes and the verbose reporter's → lines change nothing", () => {
    expect(COLOURED_VERBOSE).toContain("\u001b[");
    expect(parseTestFailures(COLOURED_VERBOSE)).toEqual(parseTestFailures(PLAIN));
  });

  test("a file that failed to load is a failure of that file", () => {
    expect(parseTestFailures(LOAD_ERROR)).toEqual({
      framework: "vitest",
      failures: [
        {
          name: "(the file failed to load)",
          file: "bad.test.js",
          message: "Error: Cannot find module './missing.js' imported from /workspace/bad.test.js",
          location: "bad.test.js:2:1",
        },
      ],
    });
  });
});

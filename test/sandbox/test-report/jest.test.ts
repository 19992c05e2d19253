import { parseTestFailures } from "../../../src/sandbox/test-report/parse.js";
import { JEST, JEST_VERBOSE, JEST_SUITE_ERROR, JEST_CONSOLE } from "./outputs/jest.js";

describe("jest output", () => {
  test("each ● block: suites › test, the file, the assertion, the frame in the test file, totals", () => {
    const parsed = parseTestFailures(JEST);
    expect(parsed.framework).toBe("jest");
    expect(parsed.totals).toEqual({ passed: 3, failed: 4, total: 7 });
    expect(parsed.failures.map((f) => [f.file, f.name, f.location])).toEqual([
      ["test/math.test.js", "math › subtracts", "test/math.test.js:4:34"],
      ["test/math.test.js", "math › nested › multiplies", "test/math.test.js:6:37"],
      ["test/math.test.js", "other › throws", "test/math.test.js:10:30"],
      ["test/expect.test.js", "uses expect", "test/expect.test.js:1:44"],
    ]);
    expect(parsed.failures[0]!.message).toBe("assert.strictEqual(received, expected)\nExpected value to strictly be equal to:\n  3\nReceived:\n  2");
    expect(parsed.failures[2]!.message).toBe("boom at top");
  });

  test("the message stops before the code frame", () => {
    const uses = parseTestFailures(JEST).failures[3]!;
    expect(uses.message).toBe("expect(received).toEqual(expected) // deep equality\n- Expected  - 1\n+ Received  + 1\n  Array [\n    1,\n-   3,\n+   2,\n  ]");
    expect(uses.message).not.toContain("|");
  });

  test("--verbose: the ✕ tree adds nothing and counts nothing twice", () => {
    expect(parseTestFailures(JEST_VERBOSE)).toEqual(parseTestFailures(JEST));
  });

  test("a file that failed to load is one failure, with the error line instead of jest's advice", () => {
    expect(parseTestFailures(JEST_SUITE_ERROR)).toEqual({
      framework: "jest",
      failures: [
        {
          name: "Test suite failed to run",
          file: "broken/bad.test.js",
          message: "SyntaxError: /workspace/broken/bad.test.js: Unexpected token (1:10)",
          location: "broken/bad.test.js:1",
        },
      ],
      totals: { total: 0 },
    });
  });

  test("console output blocks are not failures", () => {
    expect(parseTestFailures(JEST_CONSOLE).failures).toEqual([
      {
        name: "logs then fails",
        file: "con/c.test.js",
        message: "expect(received).toBe(expected) // Object.is equality\nExpected: 3\nReceived: 2",
        location: "c.test.js:1:75",
      },
    ]);
  });
});

import { parseTestFailures } from "../../../src/sandbox/test-report/parse.js";
import { MOCHA_SPEC, MOCHA_TAP, TAPE } from "./outputs/mocha-tap.js";

describe("mocha spec reporter", () => {
  test("each numbered failure: the nested titles, the message before the diff, the frame in the test file", () => {
    expect(parseTestFailures(MOCHA_SPEC)).toEqual({
      framework: "mocha",
      failures: [
        {
          name: "math › subtracts",
          message: "AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:\n2 !== 3",
          location: "test/math.test.js:4:34",
        },
        {
          name: "math › nested › multiplies",
          message: "AssertionError [ERR_ASSERTION]: Expected values to be strictly deep-equal:\n+ actual - expected\n{\n+   a: 6\n-   a: 7\n}",
          location: "test/math.test.js:6:37",
        },
        { name: "other › throws", message: "Error: boom at top", location: "test/math.test.js:10:30" },
      ],
      totals: { passed: 2, failed: 3 },
    });
  });

  test("the numbered marks in the progress tree above `N failing` are not read as failures", () => {
    expect(MOCHA_SPEC).toContain("    1) subtracts");
    expect(parseTestFailures(MOCHA_SPEC).failures).toHaveLength(3);
  });
});

describe("TAP", () => {
  test("mocha's tap reporter: plain indented details, message without the repeated error line", () => {
    expect(parseTestFailures(MOCHA_TAP)).toEqual({
      framework: "tap",
      failures: [
        { name: "math subtracts", message: "Expected values to be strictly equal:\n2 !== 3", location: "test/math.test.js:4:34" },
        {
          name: "math nested multiplies",
          message: "Expected values to be strictly deep-equal:\n+ actual - expected\n  {\n+   a: 6\n-   a: 7\n  }",
          location: "test/math.test.js:6:37",
        },
        { name: "other throws", message: "boom at top", location: "test/math.test.js:10:30" },
      ],
      totals: { passed: 2, failed: 3, total: 5 },
    });
  });

  test("tape: the test's `# name` before the assertion's, what was compared, the frame past tape's own", () => {
    expect(parseTestFailures(TAPE)).toEqual({
      framework: "tap",
      failures: [
        { name: "math subtracts › five minus three", message: "equal: expected 3, actual 2", location: "tape.test.js:3:35" },
        { name: "deep › should be deeply equivalent", message: "deepEqual: expected { a: 7 }, actual { a: 6 }", location: "tape.test.js:4:25" },
      ],
      totals: { passed: 1, failed: 2, total: 3 },
    });
  });

  test("a TODO or SKIP test point is not a failure", () => {
    const out = "TAP version 13\nnot ok 1 - later # TODO not written yet\nok 2 - now\nnot ok 3 - flaky # SKIP on CI\n1..3\n";
    expect(parseTestFailures(out).failures).toEqual([]);
  });
});

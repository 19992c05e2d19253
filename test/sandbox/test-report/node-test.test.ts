import { parseTestFailures } from "../../../src/sandbox/test-report/parse.js";
import { SPEC, TAP, PASSING } from "./outputs/node-test.js";

const EXPECTED = [
  { name: "math › subtracts", message: "AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:\n2 !== 3", location: "math.test.mjs:5:36" },
  {
    name: "math › nested › multiplies",
    message: "AssertionError [ERR_ASSERTION]: Expected values to be strictly deep-equal:\n+ actual - expected\n  {\n+   a: 6\n-   a: 7\n  }",
    location: "math.test.mjs:7:39",
  },
  { name: "top-level throws", message: "Error: boom at top", location: "math.test.mjs:10:40" },
];

describe("node:test output", () => {
  test("spec reporter: nested names, the assertion message and the test file's frame, totals", () => {
    expect(parseTestFailures(SPEC)).toEqual({ framework: "node:test", failures: EXPECTED, totals: { passed: 2, failed: 3, skipped: 0, total: 5 } });
  });

  test("spec reporter: the `failing tests` section at the end does not count twice", () => {
    expect(parseTestFailures(SPEC).failures).toHaveLength(3);
  });

  test("spec reporter: only the end section (a reporter that prints details there only) still gives each failure", () => {
    const end = SPEC.slice(SPEC.indexOf("✖ failing tests:"));
    const failures = parseTestFailures(`ℹ tests 5\n${end}`).failures;
    expect(failures.map((f) => [f.name, f.location])).toEqual([
      ["subtracts", "math.test.mjs:5:36"],
      ["multiplies", "math.test.mjs:7:39"],
      ["top-level throws", "math.test.mjs:10:40"],
    ]);
    expect(failures[0]!.message).toBe("AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:\n2 !== 3");
  });

  test("TAP reporter: suites failed through their subtests are not failures of their own", () => {
    const parsed = parseTestFailures(TAP);
    expect(parsed.framework).toBe("tap");
    expect(parsed.failures.map((f) => f.name)).toEqual(["math › subtracts", "math › nested › multiplies", "top-level throws"]);
    expect(parsed.totals).toEqual({ passed: 2, failed: 3, skipped: 0, total: 5 });
  });

  test("TAP reporter: the YAML error is the message, the stack's first own frame the location", () => {
    const [subtracts, multiplies, throws] = parseTestFailures(TAP).failures;
    expect(subtracts).toEqual({ name: "math › subtracts", message: "Expected values to be strictly equal:\n2 !== 3", location: "math.test.mjs:5:36" });
    expect(multiplies!.message).toBe("Expected values to be strictly deep-equal:\n+ actual - expected\n{\n+   a: 6\n-   a: 7\n}");
    expect(throws).toEqual({ name: "top-level throws", message: "boom at top", location: "math.test.mjs:10:40" });
  });

  test("a passing run with a skipped test has no failures and its totals", () => {
    expect(parseTestFailures(PASSING)).toEqual({ framework: "node:test", failures: [], totals: { passed: 1, failed: 0, skipped: 1, total: 2 } });
  });

  test("frames outside the directory the tests ran in are skipped: the test's own `test at` line is used instead", () => {
    const elsewhere = parseTestFailures(SPEC, { root: "/somewhere/else" }).failures;
    expect(elsewhere.map((f) => f.location)).toEqual(["math.test.mjs:5:3", "math.test.mjs:7:5", "math.test.mjs:10:1"]);
  });
});

import { parseTestFailures } from "../../../src/sandbox/test-report/parse.js";
import { GO, GO_VERBOSE, GO_BUILD_FAILED, CARGO } from "./outputs/go-cargo.js";

const GO_TESTS = [
  { name: "TestSubtracts", file: "example.com/mathx", message: "5 - 3 = 2, want 3", location: "math_test.go:13" },
  { name: "TestNested/multiplies", file: "example.com/mathx", message: "2 * 3 = 6, want 7", location: "math_test.go:19" },
  { name: "TestPanics", file: "example.com/mathx", message: "panic: assignment to entry in nil map [recovered]", location: "math_test.go:26" },
];

describe("go test output", () => {
  test("--- FAIL lines with their log lines; a parent failed only by its subtest is named by the subtest; the package", () => {
    expect(parseTestFailures(GO)).toEqual({ framework: "go", failures: GO_TESTS });
  });

  test("a panic's location is its frame in the workspace, past the runtime's", () => {
    expect(GO).toContain("/usr/lib/go-1.19/src/testing/testing.go:1396");
    expect(parseTestFailures(GO).failures[2]!.location).toBe("math_test.go:26");
  });

  test("-v: log lines printed before `--- FAIL` still belong to their test", () => {
    expect(parseTestFailures(GO_VERBOSE)).toEqual(parseTestFailures(GO));
  });

  test("a package that does not compile is a failure carrying the compiler's error", () => {
    const failures = parseTestFailures(GO_BUILD_FAILED).failures;
    expect(failures.slice(0, 3)).toEqual(GO_TESTS);
    expect(failures[3]).toEqual({
      name: "example.com/mathx/broken [build failed]",
      file: "example.com/mathx/broken",
      message: 'broken/b.go:2:23: cannot use "x" (untyped string constant) as int value in return statement',
      location: "broken/b.go:2:23",
    });
  });
});

describe("cargo test output", () => {
  test("each FAILED test with its panic message and location, totals summed over test binaries", () => {
    expect(parseTestFailures(CARGO)).toEqual({
      framework: "cargo",
      failures: [
        { name: "tests::panics", message: "boom at top", location: "src/lib.rs:11:19" },
        { name: "tests::subtracts", message: "assertion `left == right` failed\n  left: 2\n right: 3", location: "src/lib.rs:9:22" },
      ],
      totals: { passed: 1, failed: 2, skipped: 0 },
    });
    const twice = `${CARGO}\n${CARGO.replace(/tests::/g, "more::")}`;
    expect(parseTestFailures(twice).totals).toEqual({ passed: 2, failed: 4, skipped: 0 });
  });
});

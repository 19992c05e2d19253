import { parseTestFailures } from "../../../src/sandbox/test-report/parse.js";
import { DEFAULT, QUIET, COLLECTION_ERROR } from "./outputs/pytest.js";

const EXPECTED = [
  { name: "tests/test_math.py::test_subtracts", file: "tests/test_math.py", message: "assert (5 - 3) == 3", location: "tests/test_math.py:10" },
  {
    name: "tests/test_math.py::TestNested::test_multiplies",
    file: "tests/test_math.py",
    message: "AssertionError: assert {'a': 6} == {'a': 7}\n  Differing items:\n  {'a': 6} != {'a': 7}\n  Use -v to get more diff",
    location: "tests/test_math.py:14",
  },
  { name: "tests/test_math.py::test_throws", file: "tests/test_math.py", message: "ValueError: boom at top", location: "tests/test_math.py:17" },
  { name: "tests/test_math.py::test_param[2]", file: "tests/test_math.py", message: "assert 2 == 1", location: "tests/test_math.py:21" },
];

describe("pytest output", () => {
  test("node ids from the short summary; the E lines (not the summary's cut message) and the crash line from each section", () => {
    expect(parseTestFailures(DEFAULT)).toEqual({ framework: "pytest", failures: EXPECTED, totals: { passed: 2, failed: 4 } });
    expect(DEFAULT).toContain("AssertionError: asse...");
  });

  test("-q: the same failures and totals from a final line without its banner", () => {
    expect(parseTestFailures(QUIET)).toEqual(parseTestFailures(DEFAULT));
  });

  test("a module that fails to import is a failure named by its file", () => {
    expect(parseTestFailures(COLLECTION_ERROR)).toEqual({
      framework: "pytest",
      failures: [
        {
          name: "tests/test_broken.py",
          file: "tests/test_broken.py",
          message: "ModuleNotFoundError: No module named 'nonexistent_module_xyz'",
          location: "tests/test_broken.py:1",
        },
      ],
      totals: { failed: 1 },
    });
  });

  test("--tb=no (no sections): the short summary alone still names each failure and its message", () => {
    const out = DEFAULT.slice(0, DEFAULT.indexOf("=== FAILURES")) + DEFAULT.slice(DEFAULT.indexOf("=========================== short test summary"));
    const failures = parseTestFailures(out).failures;
    expect(failures.map((f) => [f.name, f.message, f.location])).toEqual([
      ["tests/test_math.py::test_subtracts", "assert (5 - 3) == 3", undefined],
      ["tests/test_math.py::TestNested::test_multiplies", "AssertionError: asse...", undefined],
      ["tests/test_math.py::test_throws", "ValueError: boom at top", undefined],
      ["tests/test_math.py::test_param[2]", "assert 2 == 1", undefined],
    ]);
  });
});

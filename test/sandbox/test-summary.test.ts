import { SUMMARY_MAX_BYTES, summarizeTestRun } from "../../src/sandbox/test-summary.js";
import { JEST_CONSOLE as JEST } from "./test-report/outputs/jest.js";
import { QUIET as PYTEST } from "./test-report/outputs/pytest.js";

describe("summarizeTestRun", () => {
  test("jest: totals, each failing test with where and why, then the last lines; colour codes stripped", () => {
    const summary = summarizeTestRun("", `\u001b[1m\u001b[31m${JEST}\u001b[39m`, 1);
    expect(summary.split("last lines:")[0]).toBe(
      [
        "exit code 1",
        "1 failed, 1 total (jest)",
        "failing tests (1):",
        "- logs then fails (c.test.js:1:75): expect(received).toBe(expected) // Object.is equality",
        "",
      ].join("\n"),
    );
    expect(summary.endsWith("Time:        1.335 s\nRan all test suites.")).toBe(true);
    expect(summary).not.toContain("\u001b");
  });

  test("pytest: node ids with the crash line and the assertion", () => {
    expect(summarizeTestRun(PYTEST, "", 1).split("last lines:")[0]).toBe(
      [
        "exit code 1",
        "4 failed, 2 passed (pytest)",
        "failing tests (4):",
        "- tests/test_math.py::test_subtracts (tests/test_math.py:10): assert (5 - 3) == 3",
        "- tests/test_math.py::TestNested::test_multiplies (tests/test_math.py:14): AssertionError: assert {'a': 6} == {'a': 7}",
        "- tests/test_math.py::test_throws (tests/test_math.py:17): ValueError: boom at top",
        "- tests/test_math.py::test_param[2] (tests/test_math.py:21): assert 2 == 1",
        "",
      ].join("\n"),
    );
  });

  test("an already parsed run is used as it is", () => {
    const parsed = { framework: "go", failures: [{ name: "TestA", file: "example.com/x" }] };
    expect(summarizeTestRun("whatever", "", 1, parsed)).toBe("exit code 1\nfailing tests (1):\n- TestA (example.com/x)\nlast lines:\nwhatever");
  });

  test("a pass names no failures and keeps only the last 20 non-empty lines", () => {
    const stdout = Array.from({ length: 30 }, (_, i) => `line ${i + 1}\n`).join("\n");
    const lines = summarizeTestRun(stdout, "", 0).split("\n");
    expect(lines[0]).toBe("exit code 0");
    expect(lines.slice(1)).toEqual(["last lines:", ...Array.from({ length: 20 }, (_, i) => `line ${i + 11}`)]);
  });

  test("a killed run says so", () => {
    expect(summarizeTestRun("", "", null)).toBe("ended without an exit code (killed or timed out)");
  });

  test("capped at 2 KB: failing names kept first, tail lines dropped oldest first", () => {
    const names = Array.from({ length: 12 }, (_, i) => `--- FAIL: TestNumber${i}WithAVeryLongDescriptiveName (0.00s)`);
    const noise = Array.from({ length: 20 }, (_, i) => `noise ${i} ${"z".repeat(150)}`);
    const summary = summarizeTestRun([...names, ...noise].join("\n"), "", 1);
    expect(Buffer.byteLength(summary)).toBeLessThanOrEqual(SUMMARY_MAX_BYTES);
    expect(summary).toContain("failing tests (12):\n- TestNumber0WithAVeryLongDescriptiveName");
    expect(summary).toContain("- TestNumber11WithAVeryLongDescriptiveName\nlast lines:\n");
    expect(summary.endsWith(`noise 19 ${"z".repeat(150)}`)).toBe(true);
    expect(summary).not.toContain("noise 0 ");
  });
});

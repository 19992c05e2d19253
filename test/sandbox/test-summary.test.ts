import { SUMMARY_MAX_BYTES, summarizeTestRun } from "../../src/sandbox/test-summary.js";

describe("summarizeTestRun", () => {
  test("jest: FAIL files and ✕ tests, colour codes stripped", () => {
    const stderr = [
      "\u001b[1m\u001b[31mFAIL\u001b[39m\u001b[22m src/add.test.ts",
      "  add",
      "    ✓ adds zero (2 ms)",
      "    ✕ adds two numbers (3 ms)",
      "PASS src/sub.test.ts",
      "Tests:       1 failed, 2 passed, 3 total",
    ].join("\n");
    expect(summarizeTestRun("", stderr, 1)).toBe(
      [
        "exit code 1",
        "failing tests (2):",
        "- src/add.test.ts",
        "- adds two numbers",
        "last lines:",
        "FAIL src/add.test.ts",
        "  add",
        "    ✓ adds zero (2 ms)",
        "    ✕ adds two numbers (3 ms)",
        "PASS src/sub.test.ts",
        "Tests:       1 failed, 2 passed, 3 total",
      ].join("\n"),
    );
  });

  test("pytest short summary", () => {
    const stdout = "tests/test_x.py .F\n=== short test summary info ===\nFAILED tests/test_x.py::test_add - assert 1 == 2\n1 failed, 1 passed";
    expect(summarizeTestRun(stdout, "", 1)).toBe(
      "exit code 1\nfailing tests (1):\n- tests/test_x.py::test_add\nlast lines:\ntests/test_x.py .F\n=== short test summary info ===\nFAILED tests/test_x.py::test_add - assert 1 == 2\n1 failed, 1 passed",
    );
  });

  test("go test, node:test TAP and spec, cargo", () => {
    const out = [
      "--- FAIL: TestAdd (0.00s)",
      "not ok 2 - subtracts # time=1ms",
      "✖ multiplies (0.8ms)",
      "test math::divides ... FAILED",
      "ok 1 - adds",
    ].join("\n");
    expect(summarizeTestRun(out, "", 1).split("last lines:")[0]).toBe(
      "exit code 1\nfailing tests (4):\n- TestAdd\n- subtracts\n- multiplies\n- math::divides\n",
    );
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
    const names = Array.from({ length: 12 }, (_, i) => `--- FAIL: TestNumber${i}WithAVeryLongDescriptiveName`);
    const noise = Array.from({ length: 20 }, (_, i) => `noise ${i} ${"z".repeat(150)}`);
    const summary = summarizeTestRun([...names, ...noise].join("\n"), "", 1);
    expect(Buffer.byteLength(summary)).toBeLessThanOrEqual(SUMMARY_MAX_BYTES);
    expect(summary).toContain("failing tests (12):\n- TestNumber0WithAVeryLongDescriptiveName");
    expect(summary).toContain("- TestNumber11WithAVeryLongDescriptiveName\nlast lines:\n");
    expect(summary.endsWith(`noise 19 ${"z".repeat(150)}`)).toBe(true);
    expect(summary).not.toContain("noise 0 ");
  });
});

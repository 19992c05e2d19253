/**
 * Passed/total from the end of a test log, for "tests passed (2/2)". Only the common runners'
 * closing lines are read; anything else gives null and the report says "passed" without numbers.
 */
export interface TestCounts {
  passed: number;
  failed: number;
}

const PATTERNS: { re: RegExp; read: (m: RegExpExecArray) => TestCounts }[] = [
  // jest / vitest: "Tests:       1 failed, 2 passed, 3 total"
  { re: /Tests:\s+(?:(\d+) failed, )?(?:\d+ skipped, )?(\d+) passed/, read: (m) => ({ failed: Number(m[1] ?? 0), passed: Number(m[2]) }) },
  // node:test / TAP: "# pass 2" … "# fail 0"
  { re: /# pass (\d+)[\s\S]*?# fail (\d+)/, read: (m) => ({ passed: Number(m[1]), failed: Number(m[2]) }) },
  // mocha: "2 passing" / "1 failing"
  { re: /(\d+) passing(?:[\s\S]*?(\d+) failing)?/, read: (m) => ({ passed: Number(m[1]), failed: Number(m[2] ?? 0) }) },
  // cargo: "test result: ok. 2 passed; 0 failed"
  { re: /test result: \w+\. (\d+) passed; (\d+) failed/, read: (m) => ({ passed: Number(m[1]), failed: Number(m[2]) }) },
  // pytest and the plain form: "1 failed, 2 passed" / "2 passed, 1 failed"
  { re: /(?:(\d+) failed, )?(\d+) passed(?:, (\d+) failed)?/, read: (m) => ({ passed: Number(m[2]), failed: Number(m[1] ?? m[3] ?? 0) }) },
];

export function testCounts(summary: string): TestCounts | null {
  for (const p of PATTERNS) {
    const m = p.re.exec(summary);
    if (m) return p.read(m);
  }
  return null;
}

/** ` (2/2)` when all passed, ` (1/2 passed)` otherwise, `` when the log does not say. */
export function countsSuffix(summary: string): string {
  const c = testCounts(summary);
  if (!c) return "";
  return c.failed === 0 ? ` (${c.passed}/${c.passed})` : ` (${c.passed}/${c.passed + c.failed} passed)`;
}

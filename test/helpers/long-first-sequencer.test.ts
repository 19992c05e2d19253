import { existsSync } from "node:fs";
import { join } from "node:path";
import { KNOWN_LONG, longFirst, tierOf, type FileFacts } from "./long-first-sequencer.js";

const ROOT = join(import.meta.dirname, "../..");
const file = (path: string, more: Partial<FileFacts> = {}): FileFacts => ({ path, failed: false, measuredMs: undefined, size: 1000, ...more });
const order = (files: FileFacts[]) => longFirst(files).map((f) => f.path);

describe("the order test files start in", () => {
  test("every file the list names is a test file that exists, so a renamed one cannot silently lose its place", () => {
    const missing = [...KNOWN_LONG.keys()].filter((p) => !p.endsWith(".test.ts") || !existsSync(join(ROOT, p)));
    expect(missing).toEqual([]);
  });

  test("the longest known file first, even when a file nobody measured is bigger", () => {
    const long = "test/eval/suite.slow.test.ts";
    expect(KNOWN_LONG.get(long)).toBeGreaterThan(100);
    expect(order([file("test/x/big.slow.test.ts", { size: 90_000 }), file(long, { size: 10 })])).toEqual([long, "test/x/big.slow.test.ts"]);
  });

  test("unmeasured files by tier (slow, integration, unit), the bigger first within a tier", () => {
    const files = [
      file("test/a/u.test.ts", { size: 50_000 }),
      file("test/a/i-small.integration.test.ts", { size: 10 }),
      file("test/a/s.slow.test.ts", { size: 10 }),
      file("test/a/i-big.integration.test.ts", { size: 20 }),
    ];
    expect(order(files)).toEqual(["test/a/s.slow.test.ts", "test/a/i-big.integration.test.ts", "test/a/i-small.integration.test.ts", "test/a/u.test.ts"]);
    expect(files.map((f) => tierOf(f.path))).toEqual(["unit", "integration", "slow", "integration"]);
  });

  test("a time jest measured on this machine outranks the list, and a file that failed last time goes first", () => {
    const listed = "test/eval/suite.slow.test.ts";
    const measured = file("test/a/m.integration.test.ts", { measuredMs: 400_000 });
    expect(order([file(listed), measured])).toEqual([measured.path, listed]);
    expect(order([file(listed), measured, file("test/a/f.test.ts", { failed: true })])[0]).toBe("test/a/f.test.ts");
  });
});

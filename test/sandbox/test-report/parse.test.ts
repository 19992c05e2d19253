import { parseTestFailures } from "../../../src/sandbox/test-report/parse.js";

describe("parseTestFailures", () => {
  test("output of no known runner: framework unknown, no failures, no totals", () => {
    expect(parseTestFailures("make: *** [Makefile:3: test] Error 1\n")).toEqual({ framework: "unknown", failures: [] });
    expect(parseTestFailures("")).toEqual({ framework: "unknown", failures: [] });
  });

  test("one command running two runners: both are read, named in order, totals added", () => {
    const mocha = "  1 passing (3ms)\n  1 failing\n\n  1) adds:\n     Error: nope\n      at Context.<anonymous> (test/a.js:3:9)\n";
    const node =
      "✖ subtracts (1ms)\n  Error: off by one\n      at TestContext.<anonymous> (file:///workspace/test/b.mjs:4:11)\n\nℹ tests 2\nℹ pass 1\nℹ fail 1\n";
    expect(parseTestFailures(`${mocha}\n${node}`)).toEqual({
      framework: "node:test+mocha",
      failures: [
        { name: "subtracts", message: "Error: off by one", location: "test/b.mjs:4:11" },
        { name: "adds", message: "Error: nope", location: "test/a.js:3:9" },
      ],
      totals: { passed: 2, failed: 2, total: 2 },
    });
  });

  test("carriage returns (a runner's progress line) are removed", () => {
    const out = "running 1 test\r\ntest it::works ... FAILED\r\n\r\ntest result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out\r\n";
    expect(parseTestFailures(out)).toEqual({ framework: "cargo", failures: [{ name: "it::works" }], totals: { passed: 0, failed: 1, skipped: 0 } });
  });

  test("a location in a dependency is never taken for the repository's", () => {
    const out =
      "✖ t (1ms)\n  Error: x\n      at f (/workspace/node_modules/lib/index.js:1:1)\n      at g (node:internal/x:2:2)\n      at h (/workspace/src/own.js:9:3)\n\nℹ tests 1\n";
    expect(parseTestFailures(out).failures[0]!.location).toBe("src/own.js:9:3");
  });

  test("a long message is cut to a few lines, and says so", () => {
    const body = Array.from({ length: 20 }, (_, i) => `  detail ${i}`).join("\n");
    const out = `✖ t (1ms)\n  Error: many lines\n${body}\n      at h (/workspace/a.js:1:1)\n\nℹ tests 1\n`;
    const message = parseTestFailures(out).failures[0]!.message!;
    expect(message.split("\n")).toHaveLength(9);
    expect(message.endsWith("\n…")).toBe(true);
  });
});

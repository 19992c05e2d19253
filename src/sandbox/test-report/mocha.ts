import { firstOwnFrame, indentOf, messageFrom, totalsOf } from "./lines.js";
import type { FrameworkParser, TestFailure } from "./types.js";

/**
 * Mocha's spec reporter: after `N failing`, each failure is `  1) suite` with the nested titles on
 * the following lines, the last ending with `:`, then the error, an optional diff
 * (`+ expected - actual`) and the stack.
 */

const PASSING = /^\s+(\d+) passing\b/;
const FAILING = /^\s+(\d+) failing$/;
const PENDING = /^\s+(\d+) pending$/;
const ENTRY = /^ {2}(\d+)\) (.+)$/;

export const mochaParser: FrameworkParser = {
  framework: "mocha",
  detect: (lines) => lines.some((l) => PASSING.test(l)) || lines.some((l) => FAILING.test(l)),
  parse(lines, paths) {
    const failures: TestFailure[] = [];
    const start = lines.findIndex((l) => FAILING.test(l));
    for (let i = start < 0 ? lines.length : start + 1; i < lines.length; i++) {
      const e = ENTRY.exec(lines[i]!);
      if (!e) continue;
      const titles = [e[2]!];
      let j = i + 1;
      while (!titles[titles.length - 1]!.endsWith(":") && j < lines.length && indentOf(lines[j]!) > 2 && lines[j]!.trim() !== "")
        titles.push(lines[j++]!.trim());
      let end = j;
      while (end < lines.length && !ENTRY.test(lines[end]!)) end++;
      const block = lines.slice(j, end);
      const stackAt = block.findIndex((l) => /^\s+at /.test(l));
      const diffAt = block.findIndex((l) => /^\s+\+ expected - actual$/.test(l));
      const stops = [stackAt, diffAt].filter((n) => n >= 0);
      const message = messageFrom(block.slice(0, stops.length > 0 ? Math.min(...stops) : block.length));
      const location = stackAt < 0 ? undefined : firstOwnFrame(block.slice(stackAt), paths);
      const name = titles.map((t) => t.replace(/:$/, "")).join(" › ");
      failures.push({ name, ...(message ? { message } : {}), ...(location ? { location } : {}) });
      i = end - 1;
    }
    const count = (re: RegExp) => {
      const m = lines.map((l) => re.exec(l)?.[1]).find((x) => x !== undefined);
      return m === undefined ? undefined : Number(m);
    };
    const totals = totalsOf({ passed: count(PASSING), failed: count(FAILING), skipped: count(PENDING) });
    return totals ? { failures, totals } : { failures };
  },
};

import { countsIn, firstOwnFrame, messageFrom, totalsOf } from "./lines.js";
import type { FrameworkParser, PathStyle, TestFailure } from "./types.js";

/**
 * Jest: `FAIL path` names the file, `  ● suite › test` starts each failure, the message follows,
 * then a code frame (`> 4 | …`) and the stack. A file that could not even load is
 * `● Test suite failed to run`. Jest's own notices (`● Console`) use the same bullet.
 */

const FILE = /^\s*FAIL\s+(\S+)/;
const BULLET = /^ {2}● (.+)$/;
const NOT_FAILURES = new Set(["Console"]);
const CODE_FRAME = /^\s*>?\s*\d+ \|/;
const TOTALS = /^Tests:\s+(.+total)$/;

export const jestParser: FrameworkParser = {
  framework: "jest",
  detect: (lines) => lines.some((l) => TOTALS.test(l)) || (lines.some((l) => /^(FAIL|PASS) \S/.test(l)) && lines.some((l) => BULLET.test(l))),
  parse(lines, paths) {
    const failures: TestFailure[] = [];
    let file: string | undefined;
    for (let i = 0; i < lines.length; i++) {
      const f = FILE.exec(lines[i]!);
      if (f && !lines[i]!.startsWith(" ")) file = f[1];
      const b = BULLET.exec(lines[i]!);
      if (!b || NOT_FAILURES.has(b[1]!.trim())) continue;
      let end = i + 1;
      while (end < lines.length && !BULLET.test(lines[end]!) && !/^(FAIL|PASS|Test Suites:|Summary of all failing tests)\b/.test(lines[end]!)) end++;
      const block = lines.slice(i + 1, end);
      const name = b[1]!.trim();
      // The summary at the end repeats failures already read.
      if (failures.some((x) => x.name === name && x.file === file)) continue;
      failures.push({ name, ...(file ? { file } : {}), ...blockDetails(block, file, paths) });
    }
    const totalsLine = lines.map((l) => TOTALS.exec(l)?.[1]).find((t) => t !== undefined);
    if (totalsLine === undefined) return { failures };
    const c = countsIn(totalsLine);
    const totals = totalsOf({ passed: c.get("passed"), failed: c.get("failed"), skipped: c.get("skipped"), total: c.get("total") });
    return totals ? { failures, totals } : { failures };
  },
};

function blockDetails(block: readonly string[], file: string | undefined, paths: PathStyle): Omit<TestFailure, "name"> {
  const stop = block.findIndex((l) => CODE_FRAME.test(l) || /^\s+at /.test(l));
  const text = stop < 0 ? block : block.slice(0, stop);
  // A suite that failed to load: the error line matters more than jest's advice around it.
  const errorLine = text.find((l) => /^\s*[A-Z]\w*Error\b.*:/.test(l));
  const message = messageFrom(text.length > 8 && errorLine ? [errorLine] : text);
  const framed = block.find((l) => /^\s*>\s*\d+ \|/.test(l));
  const frameLine = framed ? /(\d+) \|/.exec(framed)?.[1] : undefined;
  const location =
    firstOwnFrame(
      block.filter((l) => /^\s+at /.test(l)),
      paths,
    ) ?? (file && frameLine ? `${file}:${frameLine}` : undefined);
  return { ...(message ? { message } : {}), ...(location ? { location } : {}) };
}

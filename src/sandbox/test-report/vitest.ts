import { countsIn, firstOwnFrame, messageFrom, totalsOf } from "./lines.js";
import type { FrameworkParser, TestFailure } from "./types.js";

/**
 * Vitest: each failure under `Failed Tests`/`Failed Suites` starts with ` FAIL  file > suite > test`
 * (a file that could not load: ` FAIL  file [ file ]`), then the error, a diff, `❯ file:line:col`
 * and a code frame; `⎯⎯[1/3]⎯` ends it.
 */

const HEADER = /^\s*FAIL\s+(\S+?)(?: > (.+?)| \[ .+ \])\s*$/;
const SEPARATOR = /^\s*⎯{3,}/;
const TOTALS = /^\s+Tests\s+(.+)$/;

export const vitestParser: FrameworkParser = {
  framework: "vitest",
  detect: (lines) => lines.some((l) => /^\s+Test Files\s+/.test(l)) && lines.some((l) => TOTALS.test(l)),
  parse(lines, paths) {
    const failures: TestFailure[] = [];
    for (let i = 0; i < lines.length; i++) {
      const h = HEADER.exec(lines[i]!);
      if (!h) continue;
      let end = i + 1;
      while (end < lines.length && !SEPARATOR.test(lines[end]!) && !HEADER.test(lines[end]!)) end++;
      const block = lines.slice(i + 1, end);
      const file = h[1]!;
      const name = h[2] ?? "(the file failed to load)";
      const pointerAt = block.findIndex((l) => /^\s*❯ /.test(l));
      const diffAt = block.findIndex((l) => /^- Expected/.test(l));
      const stops = [pointerAt, diffAt].filter((n) => n >= 0);
      const message = messageFrom(block.slice(0, stops.length > 0 ? Math.min(...stops) : block.length));
      const pointer = pointerAt >= 0 ? block[pointerAt]!.replace(/^\s*❯\s*/, " ") : undefined;
      const location = pointer ? firstOwnFrame([pointer], paths) : undefined;
      if (failures.some((f) => f.name === name && f.file === file)) continue;
      failures.push({ name, file, ...(message ? { message } : {}), ...(location ? { location } : {}) });
    }
    const totalsLine = lines.map((l) => TOTALS.exec(l)?.[1]).find((t) => t !== undefined);
    if (totalsLine === undefined) return { failures };
    const c = countsIn(totalsLine);
    const all = /\((\d+)\)/.exec(totalsLine)?.[1];
    const totals = totalsOf({
      passed: c.get("passed"),
      failed: c.get("failed"),
      skipped: c.get("skipped"),
      total: all === undefined ? undefined : Number(all),
    });
    return totals ? { failures, totals } : { failures };
  },
};

import { countsIn, firstOwnFrame, messageFrom, totalsOf } from "./lines.js";
import type { FrameworkParser, TestFailure } from "./types.js";

/**
 * `cargo test`: `test path ... FAILED` per failure, then a `---- path stdout ----` section with
 * `thread 'path' panicked at file:line:col:` and the panic message; `test result:` per test binary.
 */

const RESULT = /^test (\S+) \.\.\. FAILED$/;
const SECTION = /^---- (\S+) stdout ----$/;
const PANIC = /panicked at ([^\s:]+:\d+(?::\d+)?):?\s*(.*)$/;
const TOTALS = /^test result: \w+\. (.+)$/;

export const cargoParser: FrameworkParser = {
  framework: "cargo",
  detect: (lines) => lines.some((l) => TOTALS.test(l)) || lines.some((l) => RESULT.test(l)),
  parse(lines, paths) {
    const failures: TestFailure[] = [];
    for (const line of lines) {
      const m = RESULT.exec(line);
      if (m && !failures.some((f) => f.name === m[1])) failures.push({ name: m[1]! });
    }
    for (let i = 0; i < lines.length; i++) {
      const s = SECTION.exec(lines[i]!);
      const failure = s ? failures.find((f) => f.name === s[1]) : undefined;
      if (!failure) continue;
      let end = i + 1;
      while (end < lines.length && !SECTION.test(lines[end]!) && !/^(failures:|stack backtrace:|note: )/.test(lines[end]!)) end++;
      const block = lines.slice(i + 1, end);
      const at = block.findIndex((l) => PANIC.test(l));
      if (at < 0) continue;
      const p = PANIC.exec(block[at]!)!;
      const location = firstOwnFrame([` ${p[1]!}`], paths);
      const message = messageFrom([p[2]!, ...block.slice(at + 1)]);
      if (location) failure.location = location;
      if (message) failure.message = message;
    }
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    let seen = false;
    for (const line of lines) {
      const t = TOTALS.exec(line);
      if (!t) continue;
      const c = countsIn(t[1]!);
      seen = true;
      passed += c.get("passed") ?? 0;
      failed += c.get("failed") ?? 0;
      skipped += c.get("ignored") ?? 0;
    }
    const totals = seen ? totalsOf({ passed, failed, skipped }) : undefined;
    return totals ? { failures, totals } : { failures };
  },
};

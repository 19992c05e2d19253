import { firstOwnFrame, indentOf, linesUnder, messageFrom, totalsOf } from "./lines.js";
import type { FrameworkParser, PathStyle, TestFailure } from "./types.js";

/**
 * node:test's spec reporter: `▶ suite` opens a suite, `✖ name (1.2ms)` is a failed test (or the
 * suite closing, at the suite's own depth), the error indented under it. The `✖ failing tests:`
 * section at the end repeats each failure with `test at file:line:col`; it fills in what the body
 * lacked and is not counted twice.
 */

const MARK = /^(\s*)([✔✖▶﹣#])\s+(.+?)(?:\s+\([\d.]+m?s\))?(?:\s+#\s*(?:SKIP|TODO)\b.*)?$/u;
const SUMMARY = /^ℹ (tests|pass|fail|skipped|todo|cancelled) (\d+)$/;
const FAILING_SECTION = "✖ failing tests:";

export const nodeSpecParser: FrameworkParser = {
  framework: "node:test",
  detect: (lines) => lines.some((l) => /^ℹ tests \d+$/.test(l)) || lines.includes(FAILING_SECTION),
  parse(lines, paths) {
    const end = lines.indexOf(FAILING_SECTION);
    const body = end < 0 ? lines : lines.slice(0, end);
    const failures = bodyFailures(body, paths);
    if (end >= 0) fillFromSection(failures, lines.slice(end + 1), paths);
    const counts = new Map<string, number>();
    for (const l of lines) {
      const m = SUMMARY.exec(l);
      if (m) counts.set(m[1]!, Number(m[2]));
    }
    const totals = totalsOf({ passed: counts.get("pass"), failed: counts.get("fail"), skipped: counts.get("skipped"), total: counts.get("tests") });
    return totals ? { failures, totals } : { failures };
  },
};

function bodyFailures(lines: readonly string[], paths: PathStyle): TestFailure[] {
  const suites: { indent: number; name: string }[] = [];
  const failures: TestFailure[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = MARK.exec(lines[i]!);
    if (!m) continue;
    const indent = m[1]!.length;
    const name = m[3]!;
    while (suites.length > 0 && suites[suites.length - 1]!.indent > indent) suites.pop();
    const open = suites[suites.length - 1];
    if (m[2] === "▶") {
      if (open?.indent === indent) suites.pop();
      suites.push({ indent, name });
      continue;
    }
    // The suite's own closing line, at its depth.
    if (open?.indent === indent && open.name === name) {
      suites.pop();
      continue;
    }
    if (m[2] !== "✖") continue;
    const detail = linesUnder(lines, i + 1, indent);
    failures.push({ name: [...suites.filter((s) => s.indent < indent).map((s) => s.name), name].join(" › "), ...errorOf(detail, paths) });
  }
  return failures;
}

function fillFromSection(failures: TestFailure[], section: readonly string[], paths: PathStyle): void {
  for (let i = 0; i < section.length; i++) {
    const at = /^test at (.+)$/.exec(section[i]!);
    const m = at ? MARK.exec(section[i + 1] ?? "") : null;
    if (!at || !m) continue;
    const name = m[3]!;
    const found = failures.find((f) => f.name === name || f.name.endsWith(` › ${name}`));
    const detail = errorOf(linesUnder(section, i + 2, indentOf(section[i + 1]!)), paths);
    const testAt = firstOwnFrame([` ${at[1]!}`], paths);
    const location = detail.location ?? testAt;
    if (!found) failures.push({ name, ...detail, ...(location ? { location } : {}) });
    else {
      if (!found.message && detail.message) found.message = detail.message;
      if (!found.location && location) found.location = location;
    }
  }
}

/** The error's message (its lines before the stack) and the first frame in the repository. */
function errorOf(detail: readonly string[], paths: PathStyle): Omit<TestFailure, "name"> {
  const stackAt = detail.findIndex((l) => /^\s+at /.test(l));
  const message = messageFrom(stackAt < 0 ? detail : detail.slice(0, stackAt));
  const location = firstOwnFrame(stackAt < 0 ? [] : detail.slice(stackAt), paths);
  return { ...(message ? { message } : {}), ...(location ? { location } : {}) };
}

import { countsIn, messageFrom, ownPath, totalsOf } from "./lines.js";
import type { FrameworkParser, PathStyle, TestFailure } from "./types.js";

/**
 * pytest: the short summary (`FAILED path::test - message`) names every failure by node id; the
 * `FAILURES`/`ERRORS` sections (`____ Class.test ____`) hold the `E   ` lines and `path:line: Error`.
 * Either may be missing (`-rN`, `--tb=no`), so each fills in for the other.
 */

const SUMMARY = /^(FAILED|ERROR) (\S+?)(?: - (.*))?$/;
const SECTION = /^_{3,} (.+?) _{3,}$/;
const BANNER = /^={3,} (.+?) ={3,}$/;
const CRASH = /^(\S+?\.py):(\d+): (\w.*)$/;
const FINAL = /^(?:=+ )?((?:\d+ \w+(?:, )?)+) in [\d.]+s(?: \([^)]*\))?(?: =+)?$/;

export const pytestParser: FrameworkParser = {
  framework: "pytest",
  detect: (lines) =>
    lines.some((l) => /^={3,} (?:test session starts|FAILURES|ERRORS|short test summary info) ={3,}$/.test(l)) ||
    lines.some((l) => FINAL.test(l) && /\b(passed|failed|error)/.test(l)),
  parse(lines, paths) {
    const sections = readSections(lines, paths);
    const failures: TestFailure[] = [];
    for (const line of lines) {
      const m = SUMMARY.exec(line);
      if (!m) continue;
      const nodeId = m[2]!;
      const section = sections.get(sectionKey(nodeId, m[1] === "ERROR")) ?? sections.get(nodeId);
      const file = nodeId.split("::")[0]!;
      const message = section?.message ?? m[3];
      failures.push({ name: nodeId, file, ...(message ? { message } : {}), ...(section?.location ? { location: section.location } : {}) });
      if (section) section.used = true;
    }
    for (const [title, s] of sections)
      if (!s.used) failures.push({ name: title, ...(s.message ? { message: s.message } : {}), ...(s.location ? { location: s.location } : {}) });
    const final = lines
      .map((l) => FINAL.exec(l)?.[1])
      .filter((t) => t !== undefined)
      .pop();
    if (final === undefined) return { failures };
    const c = countsIn(final);
    const failed = (c.get("failed") ?? 0) + (c.get("error") ?? c.get("errors") ?? 0);
    const totals = totalsOf({
      passed: c.get("passed"),
      failed: c.has("failed") || c.has("error") || c.has("errors") ? failed : undefined,
      skipped: c.get("skipped"),
    });
    return totals ? { failures, totals } : { failures };
  },
};

/** How pytest titles a node id's section: the part after the file, `::` as `.`. */
function sectionKey(nodeId: string, isError: boolean): string {
  const parts = nodeId.split("::");
  if (parts.length === 1) return isError ? `ERROR collecting ${nodeId}` : nodeId;
  return parts.slice(1).join(".");
}

interface Section {
  message?: string;
  location?: string;
  used: boolean;
}

function readSections(lines: readonly string[], paths: PathStyle): Map<string, Section> {
  const out = new Map<string, Section>();
  let inReport = false;
  for (let i = 0; i < lines.length; i++) {
    const banner = BANNER.exec(lines[i]!);
    if (banner) inReport = banner[1] === "FAILURES" || banner[1] === "ERRORS";
    const s = inReport ? SECTION.exec(lines[i]!) : null;
    if (!s) continue;
    let end = i + 1;
    while (end < lines.length && !SECTION.test(lines[end]!) && !BANNER.test(lines[end]!)) end++;
    const block = lines.slice(i + 1, end);
    const e = block.filter((l) => /^E\s/.test(l)).map((l) => l.replace(/^E {0,3}/, ""));
    const crash = block
      .map((l) => CRASH.exec(l))
      .filter((m) => m !== null)
      .pop();
    const file = crash ? ownPath(crash[1]!, paths) : null;
    const message = messageFrom(e) ?? (crash ? crash[3] : undefined);
    const title = s[1]!.replace(/^ERROR at (?:setup|teardown) of /, "");
    out.set(title, { ...(message ? { message } : {}), ...(crash && file ? { location: `${file}:${crash[2]}` } : {}), used: false });
  }
  return out;
}

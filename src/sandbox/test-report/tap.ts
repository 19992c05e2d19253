import { firstOwnFrame, indentOf, linesUnder, messageFrom, totalsOf } from "./lines.js";
import type { FrameworkParser, PathStyle, TestFailure } from "./types.js";

/**
 * TAP, as node:test (`--test-reporter=tap`), tape, node-tap and mocha's tap reporter write it.
 * Subtests are indented under a `# Subtest: name` line; a suite that failed only because a subtest
 * did is not a failure of its own. A failure's details are either a YAML block (`---` … `...`) or,
 * for mocha, plain indented lines.
 */

const TEST_POINT = /^(\s*)(not ok|ok)\b\s*\d*\s*(?:-\s*)?(.*?)\s*(?:#\s*(TODO|SKIP)\b.*)?$/i;
const SUBTEST = /^(\s*)# Subtest: (.+)$/;
const COMMENT = /^# (?!Subtest:)(.+)$/;
const TOTAL = /^#\s+(tests|pass|fail|skip|skipped|todo)\s+(\d+)\s*$/;

interface Point {
  indent: number;
  line: number;
  failure: TestFailure;
}

export const tapParser: FrameworkParser = {
  framework: "tap",
  detect: (lines) =>
    lines.some((l) => /^TAP version \d+$/.test(l)) || (lines.some((l) => /^\s*1\.\.\d+$/.test(l)) && lines.some((l) => /^\s*not ok \d+/.test(l))),
  parse(lines, paths) {
    const failures: Point[] = [];
    const parents: { indent: number; name: string }[] = [];
    let comment: string | undefined;
    let lastPointAt = new Map<number, number>();
    const totals: Record<string, number> = {};
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      const sub = SUBTEST.exec(line);
      if (sub) {
        const indent = sub[1]!.length;
        while (parents.length > 0 && parents[parents.length - 1]!.indent >= indent) parents.pop();
        parents.push({ indent, name: sub[2]!.trim() });
        continue;
      }
      const total = TOTAL.exec(line);
      if (total) {
        totals[total[1]!] = Number(total[2]);
        continue;
      }
      const c = COMMENT.exec(line);
      if (c) comment = c[1]!.trim();
      const point = TEST_POINT.exec(line);
      if (!point) continue;
      const indent = point[1]!.length;
      const since = lastPointAt.get(indent) ?? -1;
      lastPointAt = new Map([...lastPointAt].filter(([k]) => k <= indent));
      lastPointAt.set(indent, i);
      if (point[2]!.toLowerCase() !== "not ok" || point[4]) continue;
      const body = linesUnder(lines, i + 1, indent);
      // A suite reported as failed because something inside it failed: its subtests say what.
      if (failures.some((f) => f.indent > indent && f.line > since) || /failureType: '?subtestsFailed/.test(body.join("\n"))) continue;
      const names = parents.filter((p) => p.indent < indent || (p.indent === indent && p.name === point[3])).map((p) => p.name);
      const own = point[3] || "(unnamed)";
      if (names[names.length - 1] !== own) names.push(own);
      // tape names its assertions, not its tests: the preceding `# test name` comment says which test.
      const name = parents.length === 0 && comment && comment !== own ? `${comment} › ${own}` : names.join(" › ");
      failures.push({ indent, line: i, failure: { name, ...details(body, paths) } });
    }
    const t = { passed: totals.pass, failed: totals.fail, skipped: totals.skip ?? totals.skipped, total: totals.tests };
    const parsed = { failures: failures.map((f) => f.failure) };
    const tt = totalsOf(t);
    return tt ? { ...parsed, totals: tt } : parsed;
  },
};

function details(body: readonly string[], paths: PathStyle): Omit<TestFailure, "name"> {
  const yamlStart = body.findIndex((l) => l.trim() === "---");
  const located = (loc: string | undefined) => (loc ? { location: loc } : {});
  if (yamlStart < 0) {
    // mocha: the message, then the error with its stack.
    const stackAt = body.findIndex((l) => /^\s+at /.test(l));
    const text = stackAt < 0 ? body : body.slice(0, stackAt);
    const message = messageFrom(firstParagraphs(text));
    return { ...(message ? { message } : {}), ...located(firstOwnFrame(body, paths)) };
  }
  const yaml = body.slice(yamlStart + 1);
  const end = yaml.findIndex((l) => l.trim() === "...");
  const block = end < 0 ? yaml : yaml.slice(0, end);
  const message = yamlMessage(block);
  const stack = yamlField(block, "stack");
  const location = firstOwnFrame([...stack, ...yamlField(block, "at"), ...yamlField(block, "location")], paths);
  return { ...(message ? { message } : {}), ...located(location) };
}

// mocha repeats the message after `AssertionError …:`; its first paragraph says it.
function firstParagraphs(lines: readonly string[]): string[] {
  const kept = lines.filter((l) => l.trim() !== "");
  const errorAt = kept.findIndex((l, i) => i > 0 && /^\s*\w*Error\b.*:/.test(l));
  return errorAt > 0 ? kept.slice(0, errorAt) : kept;
}

function yamlMessage(block: readonly string[]): string | undefined {
  const error = yamlField(block, "error");
  const expected = yamlField(block, "expected");
  const actual = yamlField(block, "actual");
  const parts = [...error];
  // tape and node-tap give no message, only what was compared.
  if (error.length === 0 && expected.length > 0 && actual.length > 0 && expected.length + actual.length <= 6) {
    const op = yamlField(block, "operator")[0];
    parts.push(`${op ? `${op}: ` : ""}expected ${expected.join(" ")}, actual ${actual.join(" ")}`);
  }
  return messageFrom(parts);
}

/** A top-level field of a YAML diagnostic block: a scalar, a quoted string, or a `|-` block. */
function yamlField(block: readonly string[], key: string): string[] {
  const base = Math.min(...block.filter((l) => l.trim() !== "").map(indentOf));
  const at = block.findIndex((l) => indentOf(l) === base && l.trimStart().startsWith(`${key}:`));
  if (at < 0) return [];
  const value = block[at]!.trimStart()
    .slice(key.length + 1)
    .trim();
  if (value !== "" && !/^[|>][-+]?$/.test(value)) return [unquote(value)];
  const out: string[] = [];
  for (let i = at + 1; i < block.length; i++) {
    const l = block[i]!;
    if (l.trim() !== "" && indentOf(l) <= base) break;
    out.push(l.trim());
  }
  return out.filter((l) => l !== "");
}

function unquote(v: string): string {
  if (v.length >= 2 && (v[0] === "'" || v[0] === '"') && v[v.length - 1] === v[0]) return v.slice(1, -1).replace(/''/g, "'");
  return v;
}

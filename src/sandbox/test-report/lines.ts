import type { PathStyle, TestTotals } from "./types.js";

/** Small helpers the runner parsers share: message shaping, stack-frame locations, counts. */

const MAX_MESSAGE_LINES = 8;
const MAX_MESSAGE_CHARS = 600;

export function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

/** The lines that belong to the line before `from`: deeper than `indent`, up to the next line at that depth or less. */
export function linesUnder(lines: readonly string[], from: number, indent: number): string[] {
  const out: string[] = [];
  for (let i = from; i < lines.length; i++) {
    const l = lines[i]!;
    if (l.trim() !== "" && indentOf(l) <= indent) break;
    out.push(l);
  }
  return out;
}

/**
 * A message from the lines that carry it: blank lines dropped, the first line's indent removed from
 * all (runners indent a message's first line but not always the rest), bounded.
 */
export function messageFrom(lines: readonly string[]): string | undefined {
  const kept = lines.filter((l) => l.trim() !== "");
  if (kept.length === 0) return undefined;
  const indent = indentOf(kept[0]!);
  const shown = kept.slice(0, MAX_MESSAGE_LINES).map((l) => l.slice(Math.min(indent, indentOf(l))).trimEnd());
  if (kept.length > MAX_MESSAGE_LINES) shown.push("…");
  const text = shown.join("\n");
  return text.length > MAX_MESSAGE_CHARS ? `${text.slice(0, MAX_MESSAGE_CHARS - 1)}…` : text;
}

// `at fn (path:1:2)`, `at path:1:2`, and the bare `path:1:2` of TAP `location:`/`at:` fields.
const FRAME = /(?:\(|\s|^|')(?:file:\/\/)?((?:\/|\.{0,2}[\w@-])[^\s():'"]*\.[A-Za-z]\w*):(\d+)(?::(\d+))?/;

/** `file:line[:col]` of the first frame that is the repository's own code, not a runner's or a dependency's. */
export function firstOwnFrame(lines: readonly string[], paths: PathStyle): string | undefined {
  for (const line of lines) {
    const m = FRAME.exec(line);
    if (!m?.[1]) continue;
    const file = ownPath(m[1], paths);
    if (file === null) continue;
    return m[3] ? `${file}:${m[2]}:${m[3]}` : `${file}:${m[2]}`;
  }
  return undefined;
}

/** The path relative to the run's directory, or null for code that is not the repository's. */
export function ownPath(file: string, paths: PathStyle): string | null {
  const bare = file.replace(/^file:\/\//, "");
  if (bare.startsWith("node:") || bare.includes("node_modules/") || bare.startsWith("internal/")) return null;
  const root = paths.root.endsWith("/") ? paths.root : `${paths.root}/`;
  if (bare.startsWith(root)) return bare.slice(root.length);
  if (bare.startsWith("/")) return null;
  return bare.replace(/^\.\//, "");
}

/** `N word` counts out of a totals line (`4 failed, 2 passed`), keyed by the word. */
export function countsIn(line: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const m of line.matchAll(/(\d+)\s+([a-z]+)/gi)) counts.set(m[2]!.toLowerCase(), Number(m[1]));
  return counts;
}

/** Totals without the fields the runner did not report. */
export function totalsOf(t: TestTotals): TestTotals | undefined {
  const entries = Object.entries(t).filter(([, v]) => typeof v === "number" && Number.isFinite(v));
  return entries.length === 0 ? undefined : (Object.fromEntries(entries) as TestTotals);
}

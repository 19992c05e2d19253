import { clip } from "../../safety/markdown.js";
import { plainText } from "./doc.js";
import { fileChanges } from "./file-changes.js";
import type { CallView, SessionView } from "./session-view.js";
import { permission } from "./words.js";

/**
 * Provenance: for every line the final commit adds, the tool call that wrote it and who allowed
 * that call. Each mutating call records the whole patch after it (`diff_updated`); a line belongs to
 * the last call after which its file had more copies of that line than before. Consecutive lines of
 * one call become one annotation range, GitHub's `notice` level.
 */
export interface Annotation {
  path: string;
  start_line: number;
  end_line: number;
  annotation_level: "notice";
  title: string;
  message: string;
}

export interface Provenance {
  annotations: Annotation[];
  /** Changed ranges found; more than the annotations when they had to be summarised. */
  ranges: number;
  /** Annotations left out even after summarising. */
  omitted: number;
}

/** GitHub accepts 50 per request; this many in all keeps a huge diff to a handful of requests. */
const MAX_ANNOTATIONS = 500;
const MAX_MESSAGE_CHARS = 1000;

type Counts = Map<string, Map<string, number>>;

function lineCounts(patch: string): Counts {
  const counts: Counts = new Map();
  for (const f of fileChanges(patch)) {
    const m = new Map<string, number>();
    for (const l of f.addedLines) m.set(l.text, (m.get(l.text) ?? 0) + 1);
    counts.set(f.path, m);
  }
  return counts;
}

/** path → line text → the call that last added a copy of it. */
function authors(v: SessionView): Map<string, Map<string, CallView>> {
  const owner = new Map<string, Map<string, CallView>>();
  let before: Counts = new Map();
  for (const c of v.calls) {
    for (const f of c.facts) {
      if (f.type !== "diff_updated") continue;
      const after = lineCounts(f.diff.patch);
      for (const [path, lines] of after) {
        for (const [text, n] of lines) {
          if (n > (before.get(path)?.get(text) ?? 0)) {
            if (!owner.has(path)) owner.set(path, new Map());
            owner.get(path)!.set(text, c);
          }
        }
      }
      before = after;
    }
  }
  return owner;
}

function provenanceMessage(c: CallView | undefined): string {
  if (!c) return "not attributed to a tool call";
  if (c.tool === "finish") return `not written by a file tool: first seen when finish was accepted at step ${c.step}`;
  const allowed = plainText(permission(c));
  return clip(`written at step ${c.step} by ${c.tool}${allowed ? `, ${allowed}` : ""}`, MAX_MESSAGE_CHARS);
}

interface Range {
  path: string;
  start: number;
  end: number;
  call: CallView | undefined;
}

function changedRanges(v: SessionView): Range[] {
  const owner = authors(v);
  const ranges: Range[] = [];
  for (const f of fileChanges(v.state.latestDiff?.patch ?? "")) {
    if (f.status === "deleted") continue;
    for (const l of f.addedLines) {
      const call = owner.get(f.path)?.get(l.text);
      const last = ranges.at(-1);
      if (last && last.path === f.path && last.end === l.line - 1 && last.call === call) last.end = l.line;
      else ranges.push({ path: f.path, start: l.line, end: l.line, call });
    }
  }
  return ranges;
}

const span = (r: { start: number; end: number }): string => (r.start === r.end ? `${r.start}` : `${r.start}–${r.end}`);

/**
 * Over the cap, the ranges one call wrote in one file become one annotation from its first to its
 * last line whose message lists the exact lines; whatever still does not fit is counted, not lost.
 */
function summarised(ranges: Range[]): Annotation[] {
  const groups = new Map<string, Range[]>();
  for (const r of ranges) {
    const key = `${r.path}\0${r.call?.callId ?? ""}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  return [...groups.values()].map((g) => ({
    path: g[0].path,
    start_line: g[0].start,
    end_line: g[g.length - 1].end,
    annotation_level: "notice",
    title: "Patchgate provenance",
    message: clip(`${provenanceMessage(g[0].call)} (changed lines ${g.map(span).join(", ")})`, MAX_MESSAGE_CHARS),
  }));
}

export function provenance(v: SessionView, max = MAX_ANNOTATIONS): Provenance {
  const ranges = changedRanges(v);
  let annotations: Annotation[] = ranges.map((r) => ({
    path: r.path,
    start_line: r.start,
    end_line: r.end,
    annotation_level: "notice",
    title: "Patchgate provenance",
    message: provenanceMessage(r.call),
  }));
  if (annotations.length > max) annotations = summarised(ranges);
  const left = Math.max(0, annotations.length - max);
  annotations = annotations.slice(0, max);
  if (left > 0) {
    const last = annotations[annotations.length - 1];
    last.message = clip(
      `${last.message}\n\n${left} more annotations left out (GitHub's limits); the check run's timeline says which step wrote each file.`,
      MAX_MESSAGE_CHARS,
    );
  }
  return { annotations, ranges: ranges.length, omitted: left };
}

/** GitHub takes at most 50 annotations per request. */
export function batches<T>(items: readonly T[], size = 50): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

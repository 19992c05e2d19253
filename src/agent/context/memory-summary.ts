/**
 * The memory summary: what compaction keeps of the messages it removes from the prompt. A fixed
 * shape (lists of short strings) rather than free prose, so that merging two summaries is a
 * deterministic set operation instead of another model call that could lose things.
 */

import { z } from "zod";

const MAX_ITEM_CHARS = 400;

/** Per field: how many items survive a merge, and which end is kept when there are more. */
export const SUMMARY_FIELDS = {
  // The original goals matter most: keep the first ones.
  goals: { cap: 10, keep: "first" },
  // For the rest the newest are the most relevant to the next step.
  facts: { cap: 40, keep: "last" },
  decisions: { cap: 30, keep: "last" },
  files_touched: { cap: 50, keep: "last" },
  open_questions: { cap: 15, keep: "last" },
} as const;

export type SummaryField = keyof typeof SUMMARY_FIELDS;

/** Long items are shortened, not rejected: a verbose but well-formed answer is still useful. */
const item = z.string().transform((s) => {
  const t = s.trim().replace(/\s+/g, " ");
  return t.length > MAX_ITEM_CHARS ? `${t.slice(0, MAX_ITEM_CHARS - 1)}…` : t;
});

const field = (name: SummaryField) =>
  z.array(item).transform((items) =>
    capItems(
      items.filter((s) => s !== ""),
      name,
    ),
  );

/** All five fields are required (empty lists allowed): a reply missing them did not follow the request. */
export const MemorySummarySchema = z.object({
  goals: field("goals"),
  facts: field("facts"),
  decisions: field("decisions"),
  files_touched: field("files_touched"),
  open_questions: field("open_questions"),
});

export type MemorySummary = z.output<typeof MemorySummarySchema>;

export function emptySummary(): MemorySummary {
  return { goals: [], facts: [], decisions: [], files_touched: [], open_questions: [] };
}

function capItems(items: string[], name: SummaryField): string[] {
  const { cap, keep } = SUMMARY_FIELDS[name];
  if (items.length <= cap) return items;
  return keep === "first" ? items.slice(0, cap) : items.slice(items.length - cap);
}

/** Case- and whitespace-insensitive identity, so "Run npm test" and "run  npm test" are one item. */
const key = (s: string): string => s.trim().replace(/\s+/g, " ").toLowerCase();

/**
 * previous ∪ next per field: previous items first, then new ones in their order, duplicates dropped
 * (first occurrence wins), then capped. Deterministic; merging a summary with itself changes nothing.
 */
export function mergeSummaries(previous: MemorySummary | null, next: MemorySummary): MemorySummary {
  const base = previous ?? emptySummary();
  const out = emptySummary();
  for (const name of Object.keys(SUMMARY_FIELDS) as SummaryField[]) {
    const seen = new Set<string>();
    const merged: string[] = [];
    for (const s of [...base[name], ...next[name]]) {
      const k = key(s);
      if (k === "" || seen.has(k)) continue;
      seen.add(k);
      merged.push(s);
    }
    out[name] = capItems(merged, name);
  }
  return out;
}

/** The stored summary (typed `unknown` in the state) if it has the expected shape, else null. */
export function readSummary(stored: unknown): MemorySummary | null {
  const parsed = MemorySummarySchema.safeParse(stored);
  return parsed.success ? parsed.data : null;
}

/** Plain-text rendering for the runtime-context block; empty fields are left out. */
export function renderSummary(s: MemorySummary): string {
  const lines: string[] = [];
  for (const name of Object.keys(SUMMARY_FIELDS) as SummaryField[]) {
    if (s[name].length === 0) continue;
    lines.push(`${name.replace("_", " ")}:`);
    for (const it of s[name]) lines.push(`- ${it}`);
  }
  return lines.join("\n");
}

/** The bench's one output: a markdown table, or the same figures as one JSON object. */
import { isMet, type FigureResult } from "./figure.js";

export interface Row {
  id: string;
  title: string;
  result: FigureResult;
}

const num = (x: number | null | undefined): string =>
  x === null || x === undefined || !Number.isFinite(x) ? "—" : x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(3);
const cell = (s: string): string => s.replace(/\|/g, "\\|").replace(/\n/g, " ");

function goalText(f: FigureResult): string {
  return `${(f.better ?? "lower") === "lower" ? "≤" : "≥"} ${f.goal}`;
}

function metText(f: FigureResult): string {
  if (f.ratio === null) return "not measured";
  return isMet(f) ? "met" : "**not met**";
}

function ratioText(f: FigureResult): string {
  if (f.ratio === null) return "—";
  const range = f.min !== undefined && f.max !== undefined ? ` (${num(f.min)}–${num(f.max)})` : "";
  return `${num(f.ratio)}${range}`;
}

export function renderTable(rows: readonly Row[]): string {
  const lines = ["| figure | measured | baseline | ratio (min–max) | goal | met |", "|---|---|---|---|---|---|"];
  for (const { id, title, result: f } of rows) {
    const measured = f.ratio === null && f.note ? `not measured: ${f.note}` : f.measured;
    lines.push(`| \`${id}\` ${cell(title)} | ${cell(measured)} | ${cell(f.baseline)} | ${ratioText(f)} | ${goalText(f)} | ${metText(f)} |`);
  }
  return lines.join("\n");
}

export function toJson(rows: readonly Row[]): Record<string, unknown> {
  return Object.fromEntries(
    rows.map(({ id, title, result: f }) => [
      id,
      {
        title,
        ratio: f.ratio,
        goal: f.goal,
        better: f.better ?? "lower",
        met: isMet(f),
        measured: f.ratio === null ? null : f.measured,
        baseline: f.baseline,
        ...(f.min !== undefined && { min: f.min, median: f.median, max: f.max }),
        ...(f.ratio === null && { status: "not measured" }),
        ...(f.note !== undefined && { note: f.note }),
      },
    ]),
  );
}

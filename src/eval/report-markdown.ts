import type { CaseResult, EvalReport } from "./report.js";

const STATUS: Record<CaseResult["status"], string> = {
  passed: "✅ pass",
  failed: "❌ FAIL",
  error: "⚠️ error",
  skipped: "⏭ skip",
};

function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\n/g, " ");
}

function tokens(n: number, estimated: boolean): string {
  const s = n >= 10_000 ? `${(n / 1000).toFixed(1)}k` : String(n);
  return estimated ? `~${s}` : s;
}

function formatCost(usd: number | null): string {
  return usd === null ? "n/a" : `$${usd.toFixed(4)}`;
}

export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

function caseRow(r: CaseResult): string {
  const m = r.metrics;
  const cols = [
    r.id,
    r.category,
    `${r.expected.outcome} / ${r.expected.class}`,
    r.outcome ?? "—",
    r.decisive ?? "—",
    r.others.join(", ") || "—",
    r.tests ?? "—",
    String(m.steps),
    String(m.toolCalls),
    tokens(m.promptTokens + m.completionTokens, m.tokensEstimated),
    formatCost(m.costUsd),
    formatDuration(r.durationMs),
    STATUS[r.status],
  ];
  return `| ${cols.map(cell).join(" | ")} |`;
}

/** The report as GitHub-flavoured markdown: cases, what went wrong, categories, totals. */
export function renderMarkdown(report: EvalReport): string {
  const { run, totals } = report;
  const lines = [
    `# Patchgate eval — ${run.llm} (${run.model})`,
    "",
    `${run.startedAt} · cases from \`${run.casesDir}\` · ${formatDuration(run.durationMs)}`,
    "",
    "| case | category | expected | outcome | class | also seen | tests | steps | tool calls | tokens | cost | time | result |",
    "|---|---|---|---|---|---|---|---:|---:|---:|---:|---:|---|",
    ...report.cases.map(caseRow),
  ];
  const bad = report.cases.filter((r) => r.status === "failed" || r.status === "error");
  if (bad.length > 0) {
    lines.push("", "## What differed", "");
    for (const r of bad) {
      const notes = r.notes.length > 0 ? ` — ${r.notes.map(cell).join("; ")}` : "";
      lines.push(`- **${r.id}**: ${r.problems.map(cell).join("; ")}${notes}`);
    }
  }
  lines.push("", "## By category", "", "| category | passed | pass rate |", "|---|---:|---:|");
  for (const c of report.categories) {
    lines.push(`| ${cell(c.category)} | ${c.passed}/${c.total} | ${Math.round(c.passRate * 100)}% |`);
  }
  lines.push(
    "",
    `**Total: ${totals.passed}/${totals.cases - totals.skipped} passed (${Math.round(totals.passRate * 100)}%)**` +
      `${totals.failed ? `, ${totals.failed} failed` : ""}${totals.errors ? `, ${totals.errors} errors` : ""}` +
      `${totals.skipped ? `, ${totals.skipped} skipped` : ""} · ${totals.steps} steps · ${totals.toolCalls} tool calls · ` +
      `${totals.tokens} tokens · ${formatCost(totals.costUsd)} · ${formatDuration(totals.durationMs)}`,
    "",
  );
  return lines.join("\n");
}

import { buildReport, type CaseResult } from "../../src/eval/report.js";
import { renderMarkdown } from "../../src/eval/report-markdown.js";
import { EMPTY_METRICS } from "../../src/eval/metrics.js";

function result(id: string, category: string, status: CaseResult["status"], costUsd: number | null = 0.001): CaseResult {
  return {
    id,
    category,
    description: "",
    status,
    expected: { outcome: "done", class: "none" },
    outcome: status === "skipped" ? null : "done",
    decisive: status === "failed" ? "wrong_result" : "none",
    others: status === "failed" ? ["bad_patch"] : [],
    classes: [],
    tests: "pass",
    checks: [],
    problems: status === "failed" ? ["class wrong_result, expected none"] : [],
    notes: [],
    metrics: { ...EMPTY_METRICS, steps: 4, toolCalls: 5, promptTokens: 900, completionTokens: 100, costUsd },
    durationMs: 1500,
    sessionId: "s",
  };
}

const run = { startedAt: "2026-11-29T22:00:00.000Z", durationMs: 4500, llm: "openai" as const, model: "gpt-4.1-mini", casesDir: "eval/cases" };

describe("report", () => {
  test("aggregates per category and in total; skipped cases count in neither rate", () => {
    const report = buildReport(
      [result("a", "editing", "passed"), result("b", "editing", "failed"), result("c", "limits", "passed"), result("d", "limits", "skipped")],
      run,
    );
    expect(report.categories).toEqual([
      { category: "editing", passed: 1, total: 2, passRate: 0.5 },
      { category: "limits", passed: 1, total: 1, passRate: 1 },
    ]);
    expect(report.totals).toEqual({
      cases: 4,
      passed: 2,
      failed: 1,
      errors: 0,
      skipped: 1,
      passRate: 0.667,
      steps: 12,
      toolCalls: 15,
      tokens: 3000,
      costUsd: 0.003,
      durationMs: 4500,
    });
  });

  test("an unknown cost anywhere makes the total unknown rather than too low", () => {
    expect(buildReport([result("a", "x", "passed"), result("b", "x", "passed", null)], run).totals.costUsd).toBeNull();
  });

  test("markdown: one row per case, what differed, categories, totals", () => {
    const failed = { ...result("b|x", "editing", "failed"), notes: ["check failed: file_contains a"] };
    const md = renderMarkdown(buildReport([result("a", "editing", "passed"), failed], run));
    expect(md).toContain("# Patchgate eval — openai (gpt-4.1-mini)");
    expect(md).toContain("| a | editing | done / none | done | none | — | pass | 4 | 5 | 1000 | $0.0010 | 1.5 s | ✅ pass |");
    expect(md).toContain("| b\\|x | editing | done / none | done | wrong_result | bad_patch | pass | 4 | 5 | 1000 | $0.0010 | 1.5 s | ❌ FAIL |");
    expect(md).toContain("- **b|x**: class wrong_result, expected none — check failed: file_contains a");
    expect(md).toContain("| editing | 1/2 | 50% |");
    expect(md).toContain("**Total: 1/2 passed (50%)**, 1 failed · 8 steps · 10 tool calls · 2000 tokens · $0.0020 · 3.0 s");
  });
});

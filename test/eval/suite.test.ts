import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { builtinCasesDir } from "../../src/eval/builtin-cases.js";
import { runSuite, writeReport } from "../../src/eval/suite.js";
import { builtinCases, realSandbox, scriptedModel } from "./run-helpers.js";

/**
 * The whole built-in suite through the real runtime (SQLite store, policy, tools, bubblewrap),
 * exactly as `patchgate eval` runs it in CI. Every case must end as its `expect` says.
 */
test("every built-in case ends in its expected outcome and class", async () => {
  const cases = builtinCases();
  const report = await runSuite(cases, {
    mode: "scripted",
    model: "scripted",
    casesDir: builtinCasesDir(),
    llm: scriptedModel,
    sandbox: await realSandbox(),
  });

  const got = report.cases.map((r) => ({ id: r.id, status: r.status, outcome: r.outcome, class: r.decisive, problems: r.problems }));
  const want = cases.map((c) => ({ id: c.id, status: "passed", outcome: c.expect.outcome, class: c.expect.class, problems: [] }));
  expect(got).toEqual(want);
  expect(report.totals).toMatchObject({ cases: cases.length, passed: cases.length, failed: 0, errors: 0, skipped: 0, passRate: 1 });
  expect(report.categories.every((c) => c.passRate === 1)).toBe(true);
  // The scripted sessions really ran: every case made model calls and tool calls.
  for (const r of report.cases) expect([r.id, r.metrics.steps > 0, r.metrics.toolCalls > 0]).toEqual([r.id, true, true]);

  const out = mkdtempSync(path.join(os.tmpdir(), "eval-report-"));
  try {
    const files = writeReport(report, out);
    expect(JSON.parse(readFileSync(files.json, "utf8"))).toEqual(JSON.parse(JSON.stringify(report)));
    const md = readFileSync(files.markdown, "utf8");
    for (const c of cases) expect(md).toContain(`| ${c.id} | ${c.category} |`);
    expect(md).toContain(`**Total: ${cases.length}/${cases.length} passed (100%)**`);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}, 300_000);

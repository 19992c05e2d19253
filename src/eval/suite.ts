import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { EvalCase } from "./case-schema.js";
import { buildReport, type CaseResult, type EvalReport } from "./report.js";
import { renderMarkdown } from "./report-markdown.js";
import { runCase, type RunCaseOptions } from "./runner.js";

export interface SuiteOptions extends Omit<RunCaseOptions, "scratch"> {
  /** Where case directories go; default a new temp directory, removed at the end unless `keep`. */
  scratch?: string;
  /** Shown in the report: where the cases came from and which model ran them. */
  casesDir: string;
  model: string;
  /** Called after each case, for progress output. */
  onCase?: (result: CaseResult) => void;
}

/**
 * Runs the cases one after another. Sequential on purpose: a case sets variables in this process's
 * environment (fake secrets), and timings stay comparable between runs.
 */
export async function runSuite(cases: EvalCase[], opts: SuiteOptions): Promise<EvalReport> {
  const startedAt = new Date().toISOString();
  const started = performance.now();
  const scratch = opts.scratch ?? mkdtempSync(path.join(os.tmpdir(), "patchgate-eval-"));
  mkdirSync(scratch, { recursive: true });
  const results: CaseResult[] = [];
  try {
    for (const c of cases) {
      const result = await runCase(c, { ...opts, scratch });
      results.push(result);
      opts.onCase?.(result);
    }
  } finally {
    if (!opts.keep && !opts.scratch) rmSync(scratch, { recursive: true, force: true });
  }
  return buildReport(results, {
    startedAt,
    durationMs: performance.now() - started,
    llm: opts.mode,
    model: opts.model,
    casesDir: opts.casesDir,
  });
}

/** Writes `report.json` and `report.md` into `outDir`; returns their paths. */
export function writeReport(report: EvalReport, outDir: string): { json: string; markdown: string } {
  mkdirSync(outDir, { recursive: true });
  const json = path.join(outDir, "report.json");
  const markdown = path.join(outDir, "report.md");
  writeFileSync(json, JSON.stringify(report, null, 2) + "\n");
  writeFileSync(markdown, renderMarkdown(report));
  return { json, markdown };
}

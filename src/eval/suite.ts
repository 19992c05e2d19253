import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { EvalCase } from "./case-schema.js";
import { buildReport, type CaseResult, type EvalReport } from "./report.js";
import { renderMarkdown } from "./report-markdown.js";
import { runCase, type RunCaseOptions } from "./runner.js";
import { runPooled } from "./case-pool.js";

export interface SuiteOptions extends Omit<RunCaseOptions, "scratch"> {
  /** Where case directories go; default a new temp directory, removed at the end unless `keep`. */
  scratch?: string;
  /** Shown in the report: where the cases came from and which model ran them. */
  casesDir: string;
  model: string;
  /** Called after each case, for progress output. */
  onCase?: (result: CaseResult) => void;
  /**
   * How many cases run at once; default 1, so a case's timings stay comparable between runs. Most of
   * a case is waiting on git, the sandbox and the tests' processes, which overlap well.
   */
  concurrency?: number;
}

/**
 * Runs the cases, in their order, up to `concurrency` at once. A case that sets variables in this
 * process's environment (fake secrets, a real model's settings) runs with no other case beside it:
 * no other case's runtime sees them, and undoing them cannot undo another case's.
 */
export async function runSuite(cases: EvalCase[], opts: SuiteOptions): Promise<EvalReport> {
  const startedAt = new Date().toISOString();
  const started = performance.now();
  const scratch = opts.scratch ?? mkdtempSync(path.join(os.tmpdir(), "patchgate-eval-"));
  mkdirSync(scratch, { recursive: true });
  let results: CaseResult[];
  try {
    results = await runPooled(cases, opts.concurrency ?? 1, setsVariables, async (c) => {
      const result = await runCase(c, { ...opts, scratch });
      opts.onCase?.(result);
      return result;
    });
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

function setsVariables(c: EvalCase): boolean {
  return Object.keys(c.env).length > 0;
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

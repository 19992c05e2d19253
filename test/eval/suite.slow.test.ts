import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { builtinCasesDir } from "../../src/eval/builtin-cases.js";
import type { CaseResult, EvalReport } from "../../src/eval/report.js";
import { runSuite, writeReport } from "../../src/eval/suite.js";
import { builtinCases, CASES_AT_ONCE, realSandbox, scriptedModel } from "./run-helpers.js";

/**
 * The whole built-in suite through the real runtime (SQLite store, policy, tools, bubblewrap),
 * exactly as `patchgate eval` runs it in CI, each case then replayed from its stored events alone in a
 * fresh clone of its fixture (the runner's `replay` option): the replay must make the same decisions
 * and reach the same tree. One suite run, one test per case, `CASES_AT_ONCE` cases at a time (a case
 * mostly waits on git, bubblewrap and the tests' processes). Each test waits only for its own case,
 * so jest's timeout bounds one case rather than the whole suite.
 */
const cases = builtinCases();
const settled = new Map(cases.map((c) => [c.id, deferred<CaseResult>()]));
let suite: Promise<EvalReport> | undefined;

function startSuite(): Promise<EvalReport> {
  if (suite) return suite;
  suite = (async () =>
    runSuite(cases, {
      mode: "scripted",
      model: "scripted",
      casesDir: builtinCasesDir(),
      llm: scriptedModel,
      sandbox: await realSandbox(),
      replay: true,
      concurrency: CASES_AT_ONCE,
      onCase: (r) => settled.get(r.id)?.resolve(r),
    }))();
  suite.catch((err) => {
    for (const d of settled.values()) d.reject(err);
  });
  return suite;
}

test.each(cases.map((c) => [c.id, c] as const))(
  "%s ends in its expected outcome and class, and replays to the same decisions and tree",
  async (_id, c) => {
    void startSuite();
    const r = await settled.get(c.id)!.promise;
    expect({ status: r.status, outcome: r.outcome, class: r.decisive, problems: r.problems }).toEqual({
      status: "passed",
      outcome: c.expect.outcome,
      class: c.expect.class,
      problems: [],
    });
    // The scripted session really ran: it made model calls and tool calls.
    expect([r.metrics.steps > 0, r.metrics.toolCalls > 0]).toEqual([true, true]);
    expect(r.notes.filter((n) => n.startsWith("replayed: the same decisions and tree"))).toHaveLength(1);
  },
  600_000,
);

test("the suite's report counts every case and is written as JSON and markdown", async () => {
  const report = await startSuite();
  expect(report.cases.map((r) => r.id)).toEqual(cases.map((c) => c.id));
  expect(report.totals).toMatchObject({ cases: cases.length, passed: cases.length, failed: 0, errors: 0, skipped: 0, passRate: 1 });
  expect(report.categories.every((c) => c.passRate === 1)).toBe(true);

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

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  promise.catch(() => undefined); // rejected only when the suite fails; the case's test reports it
  return { promise, resolve, reject };
}

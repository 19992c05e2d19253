import { builtinCasesDir } from "../../src/eval/builtin-cases.js";
import type { CaseResult } from "../../src/eval/report.js";
import { hostSecrets } from "../../src/eval/secret-scan.js";
import { runSuite } from "../../src/eval/suite.js";
import { llmFromEnv, modelName } from "../../src/cli/runtime-env.js";
import { builtinCases, realSandbox } from "../eval/run-helpers.js";
import { liveTest } from "./live-env.js";

/**
 * The golden tasks a real model can do (cases with `modes: [openai]`) against the real endpoint.
 * A real model may fail a task, so the pass rate is printed, not required; what is required is
 * that the provider accepted every request (no case ends in llm_error) and the harness ran each case.
 */
liveTest(
  "golden tasks against the real endpoint: pass rate, tokens and cost per task",
  async () => {
    const model = modelName();
    const cases = builtinCases().filter((c) => c.modes.includes("openai"));
    const report = await runSuite(cases, {
      mode: "openai",
      model,
      casesDir: builtinCasesDir(),
      llm: () => llmFromEnv(model).llm,
      sandbox: await realSandbox(),
      hostSecrets: hostSecrets(),
    });
    console.log(
      [
        `live golden tasks, model ${model}: ${report.totals.passed}/${report.totals.cases - report.totals.skipped} passed (${Math.round(report.totals.passRate * 100)}%)`,
        ...report.cases.map(line),
      ].join("\n"),
    );
    expect(report.cases.filter((r) => r.status === "error").map((r) => `${r.id}: ${r.problems.join("; ")}`)).toEqual([]);
    expect(report.cases.filter((r) => r.decisive === "llm_error").map((r) => r.id)).toEqual([]);
  },
  3_600_000,
);

function line(r: CaseResult): string {
  const m = r.metrics;
  const cost = m.costUsd === null ? "cost unknown" : `$${m.costUsd.toFixed(4)}`;
  return `  ${r.status.padEnd(7)} ${r.id.padEnd(24)} ${`${r.outcome}/${r.decisive}`.padEnd(28)} ${m.steps} calls, ${m.promptTokens}+${m.completionTokens} tokens${m.tokensEstimated ? " (estimated)" : ""}, ${cost}`;
}

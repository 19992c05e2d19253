import path from "node:path";
import { selectSandbox } from "../sandbox/select.js";
import { builtinCasesDir } from "../eval/index.js";
import { loadCases } from "../eval/index.js";
import type { EvalCase } from "../eval/index.js";
import type { CaseResult } from "../eval/index.js";
import { formatDuration, renderMarkdown } from "../eval/index.js";
import type { LLMMode } from "../eval/index.js";
import { CaseScriptLLM } from "../eval/index.js";
import { expandScript } from "../eval/index.js";
import { hostSecrets } from "../eval/index.js";
import { runSuite, writeReport } from "../eval/index.js";
import { parseCommandArgs } from "./cli-args.js";
import { help } from "./inspect-commands.js";
import { UsageError } from "./usage-error.js";
import { llmFromEnv, modelName } from "./runtime-env.js";

export const EVAL_USAGE = `patchgate eval [--cases <dir>] [--out <dir>] [--llm scripted|openai] [--messy] [--model <m>] [--case <id>]… [--keep]`;

export interface EvalArgs {
  casesDir: string;
  outDir: string;
  llm: LLMMode;
  model: string;
  only: string[];
  keep: boolean;
  /** The scripted model answers the way real models do (messy-script.ts). */
  messy: boolean;
}

const OPTIONS = {
  cases: { type: "string" },
  out: { type: "string" },
  llm: { type: "string", default: "scripted" },
  model: { type: "string" },
  case: { type: "string", multiple: true, default: [] as string[] },
  keep: { type: "boolean", default: false },
  messy: { type: "boolean", default: false },
} as const;

/** null for `--help`. */
export function parseEvalArgs(argv: string[], now = new Date()): EvalArgs | null {
  const parsed = parseCommandArgs(argv, OPTIONS, EVAL_USAGE);
  if (parsed.help) return null;
  const { values } = parsed;
  if (values.llm !== "scripted" && values.llm !== "openai") throw new UsageError(`--llm must be scripted or openai\nusage: ${EVAL_USAGE}`);
  if (values.messy && values.llm !== "scripted") throw new UsageError(`--messy plays the cases' scripts: it needs --llm scripted\nusage: ${EVAL_USAGE}`);
  const stamp = now.toISOString().replace(/[:.]/g, "-");
  return {
    casesDir: path.resolve(values.cases ?? builtinCasesDir()),
    outDir: path.resolve(values.out ?? path.join("eval-runs", stamp)),
    llm: values.llm,
    model: values.llm === "scripted" ? (values.model ?? "scripted") : modelName(values.model),
    only: values.case,
    keep: values.keep,
    messy: values.messy,
  };
}

/**
 * `patchgate eval`: runs golden cases (the built-in ones or `--cases <dir>`) through the real runtime
 * and writes report.json and report.md. Exit 0 when every case that ran got what it expected, 1 when
 * any did not, 2 for a usage problem (bad flag, bad case file, no sandbox, no API key).
 */
export async function evalCommand(argv: string[], out: NodeJS.WritableStream = process.stdout): Promise<number> {
  const args = parseEvalArgs(argv);
  if (args === null) return help(out, EVAL_USAGE);
  let cases: EvalCase[];
  try {
    cases = loadCases(args.casesDir);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  if (args.only.length > 0) {
    const unknown = args.only.filter((id) => !cases.some((c) => c.id === id));
    if (unknown.length > 0) throw new UsageError(`unknown case ${unknown.join(", ")}`);
    cases = cases.filter((c) => args.only.includes(c.id));
  }
  const chosen = await selectSandbox("auto");
  if (!chosen.sandbox) throw new UsageError(`eval needs a sandbox to run tests: ${chosen.reason}`);
  // Fail before the first case, not inside each one.
  if (args.llm === "openai") llmFromEnv(args.model);

  out.write(
    `eval: ${cases.length} cases from ${args.casesDir}, ${args.llm}${args.messy ? " (messy)" : ""} model ${args.model}, sandbox ${chosen.sandbox.backend}\n`,
  );
  const report = await runSuite(cases, {
    mode: args.llm,
    model: args.model,
    casesDir: args.casesDir,
    // Read when the case runs, not once: a case may set the model's variables for its own session.
    llm: (c) => (args.llm === "scripted" ? new CaseScriptLLM(expandScript(c.script), args.model, { messy: args.messy }) : llmFromEnv(args.model).llm),
    sandbox: chosen.sandbox,
    hostSecrets: hostSecrets(),
    keep: args.keep,
    scratch: args.keep ? path.join(args.outDir, "cases") : undefined,
    onCase: (r) => out.write(progressLine(r)),
  });
  const files = writeReport(report, args.outDir);
  out.write(`\n${renderMarkdown(report)}\nreport: ${files.markdown}\n        ${files.json}\n`);
  const { passed, cases: n, skipped } = report.totals;
  return passed === n - skipped ? 0 : 1;
}

function progressLine(r: CaseResult): string {
  const mark = { passed: "ok  ", failed: "FAIL", error: "ERR ", skipped: "skip" }[r.status];
  const got = r.outcome ? `${r.outcome}/${r.decisive}` : "-";
  const why = r.status === "passed" || r.status === "skipped" ? "" : `  ${r.problems.join("; ")}`;
  return `${mark} ${r.id.padEnd(28)} ${got.padEnd(30)} ${formatDuration(r.durationMs)}${why}\n`;
}

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parse as parseYaml } from "yaml";
import { REPO_CONFIG_PATH, RepoConfigSchema } from "../../src/config/repo-config.js";
import { builtinCasesDir } from "../../src/eval/builtin-cases.js";
import { loadCases } from "../../src/eval/case-loader.js";
import type { EvalCase } from "../../src/eval/case-schema.js";
import { runCase, type RunCaseOptions } from "../../src/eval/runner.js";
import { CaseScriptLLM } from "../../src/eval/script-llm.js";
import { expandScript } from "../../src/eval/script-schema.js";
import type { CaseResult } from "../../src/eval/report.js";
import { selectSandbox } from "../../src/sandbox/select.js";
import type { Sandbox } from "../../src/sandbox/types.js";
import { wireChecked } from "../fakes/chat/in-process.js";

/** The real sandbox; CI installs bubblewrap, so its absence fails the tests rather than skipping them. */
export async function realSandbox(): Promise<Sandbox> {
  const chosen = await selectSandbox("bubblewrap");
  if (!chosen.sandbox) throw new Error(`the eval tests need bubblewrap: ${chosen.reason}`);
  return chosen.sandbox;
}

/**
 * How many cases a whole-suite test runs at once: a case mostly waits on git, bubblewrap and its
 * tests' processes, and the runtime's own limits bound the clones and sandbox runs beside it.
 */
export const CASES_AT_ONCE = 4;

/** The test command of the shared calc fixture, as its repository config says it. */
export function calcTestCommand(): string {
  const file = path.join(builtinCasesDir(), "_fixtures", "calc", REPO_CONFIG_PATH);
  const test = RepoConfigSchema.parse(parseYaml(readFileSync(file, "utf8"))).test;
  if (!test) throw new Error(`${file} names no test command`);
  return test;
}

export const builtinCases = (): EvalCase[] => loadCases(builtinCasesDir());

export function builtinCase(id: string): EvalCase {
  const c = builtinCases().find((x) => x.id === id);
  if (!c) throw new Error(`no built-in case ${id}`);
  return c;
}

export const scriptedModel = (c: EvalCase) => wireChecked(new CaseScriptLLM(expandScript(c.script)));

/** Runs one case with the scripted model in a scratch directory of its own. */
export async function runScripted(c: EvalCase, opts: Partial<RunCaseOptions> & { sandbox: Sandbox }): Promise<CaseResult> {
  const scratch = mkdtempSync(path.join(os.tmpdir(), "eval-test-"));
  try {
    return await runCase(c, { mode: "scripted", llm: scriptedModel, scratch, ...opts });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

import { mkdtempSync, rmSync } from "node:fs";
import path from "node:path";
import type { LLMClient } from "../agent/llm/types.js";
import type { Sandbox } from "../sandbox/types.js";
import type { EvalCase } from "./case-schema.js";
import { runCaseSession, type RuntimeVariant } from "./case-session.js";
import { evaluateChecks } from "./checks.js";
import { classify, type Verdict } from "./classify.js";
import { buildFixtureRepo } from "./fixture-repo.js";
import { judge } from "./judge.js";
import { EMPTY_METRICS, sessionMetrics } from "./metrics.js";
import { ownTestRun } from "./own-test-run.js";
import { judgedTree } from "./published-tree.js";
import type { CaseResult } from "./report.js";
import type { ReplayResult } from "./replay/replay-session.js";
import { findLeakedSecrets, type Secret } from "./secret-scan.js";
import { changedPaths, readTree } from "./tree.js";
import { setHostVariables } from "../process/index.js";
import { fold } from "../session/reducer.js";

export type LLMMode = "scripted" | "openai";

export interface RunCaseOptions {
  mode: LLMMode;
  /** The model for one case: the case's script, or a real client. */
  llm: (c: EvalCase) => LLMClient;
  sandbox: Sandbox;
  /** Parent directory for the case's scratch directory (fixture, store file, workspaces). */
  scratch: string;
  /** Keep the scratch directory (to inspect the session with `patchgate show`). */
  keep?: boolean;
  runtime?: RuntimeVariant;
  /** Replay every case's session from its record and fail the case when the replay diverges. */
  replay?: boolean;
  /** Secrets of the runner's own environment (e.g. the provider key), searched for in every case. */
  hostSecrets?: Secret[];
}

/**
 * One case end to end: build the fixture repository, run the session through the real runtime,
 * then judge it without trusting the agent — read the final tree (the published commit, when there
 * is one), run the tests again in the sandbox, look for leaked secrets, classify from the stored
 * events, compare with `expect`.
 */
export async function runCase(c: EvalCase, opts: RunCaseOptions): Promise<CaseResult> {
  const started = performance.now();
  const base = blankResult(c);
  if (!c.modes.includes(opts.mode)) return { ...base, status: "skipped", problems: [`not meant for --llm ${opts.mode}`] };
  const dir = mkdtempSync(path.join(opts.scratch, `${c.id}-`));
  // The case's variables are set in this process too, where a careless runtime could read them.
  const restoreEnv = setHostVariables(c.env);
  try {
    const fixture = await buildFixtureRepo(c, path.join(dir, "origin"));
    const session = await runCaseSession({
      c,
      fixture,
      dir,
      llm: opts.llm(c),
      sandbox: opts.sandbox,
      fallback: c.approvals_fallback ?? (opts.mode === "scripted" ? "stop" : "approve"),
      runtime: { ...runtimeOf(c), ...opts.runtime },
      replay: opts.replay,
    });
    const events = session.events;
    const judged = await judgedTree(events, session.workspaceRoot, dir);
    const final = readTree(judged);
    const checks = evaluateChecks(c.checks, { base: fixture.files, final, events });
    const own = await ownTestRun(opts.sandbox, judged, fixture.repoConfig, dir, fold(events).toolchains);
    const written = changedPaths(fixture.files, final).map((p) => final.get(p) ?? "");
    const secrets = [...c.secrets.map((name) => ({ name, value: c.env[name] })), ...(opts.hostSecrets ?? [])];
    const verdict: Verdict = {
      tests: own.tests,
      failedChecks: checks.filter((r) => !r.ok).map((r) => `${r.label}: ${r.detail}`),
      leakedSecrets: findLeakedSecrets(events, secrets, written),
    };
    const classification = classify(events, verdict);
    const { problems, waived } = judge(c.expect, classification, verdict, events, opts.mode === "scripted");
    if (session.replay) problems.push(...replayProblems(session.replay));
    const notes = [...session.notes, ...verdict.failedChecks.map((f) => `check failed: ${f}`), ...waived.map((w) => `not required with a real model: ${w}`)];
    if (own.tests === "fail") notes.push(`own test run failed: ${own.summary.split("\n").slice(0, 4).join(" / ")}`);
    if (session.replay?.same) notes.push(`replayed: the same decisions and tree ${session.replay.treeId ?? "(none published)"}`);
    if (session.restarts > 0) notes.push(`store restarted ${session.restarts}×`);
    if (opts.keep) notes.push(`kept: patchgate show ${session.sessionId} --data-dir ${dir}`);
    return {
      ...base,
      status: problems.length === 0 ? "passed" : "failed",
      outcome: classification.outcome,
      decisive: classification.decisive ?? "none",
      others: classification.others,
      classes: classification.classes,
      tests: own.tests,
      checks,
      problems,
      notes,
      metrics: sessionMetrics(events),
      durationMs: performance.now() - started,
      sessionId: session.sessionId,
    };
  } catch (e) {
    return { ...base, status: "error", problems: [`harness error: ${(e as Error).message}`], durationMs: performance.now() - started };
  } finally {
    restoreEnv();
    if (!opts.keep) rmSync(dir, { recursive: true, force: true });
  }
}

function replayProblems(r: ReplayResult): string[] {
  const d = r.firstDivergence;
  return d ? [`replay diverges at event ${d.seq}: ${d.what} (recorded ${d.recorded ?? "nothing"}, replayed ${d.replayed ?? "nothing"})`] : [];
}

/** The case's own runtime settings; a variant passed by the caller wins over them. */
function runtimeOf(c: EvalCase): RuntimeVariant {
  if (!c.compaction) return {};
  const { max_prompt_tokens, max_turns, keep_recent } = c.compaction;
  return { compaction: { maxPromptTokens: max_prompt_tokens, maxTurns: max_turns, keepRecent: keep_recent } };
}

function blankResult(c: EvalCase): CaseResult {
  return {
    id: c.id,
    category: c.category,
    description: c.description,
    status: "error",
    expected: { outcome: c.expect.outcome, class: c.expect.class },
    outcome: null,
    decisive: null,
    others: [],
    classes: [],
    tests: null,
    checks: [],
    problems: [],
    notes: [],
    metrics: EMPTY_METRICS,
    durationMs: 0,
    sessionId: null,
  };
}

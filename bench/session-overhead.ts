/**
 * session_overhead: whole sessions on real projects (./real-projects.ts) through the runtime of
 * `patchgate run` (its command function, in this process: no process start, no TypeScript loader;
 * the spawn helper kept and started first, as the command's entry starts it beside its loading),
 * with a scripted model that answers at once: read a file, plan, edit it, run the tests, finish.
 * The figure is the session's wall time over the work it must do (setup and test runs); the rest is
 * broken down by phase from the session's own ledger (./session-phases.ts).
 * Run alone: `npx tsx bench/session-overhead.ts [project…]`.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { pathToFileURL } from "node:url";
import { runCommand } from "../src/cli/run-command.js";
import { processOperatorEnv } from "../src/config/operator-env.js";
import { keepHelper } from "../src/process/index.js";
import type { StoredEvent } from "../src/session/events.js";
import { startFakeOpenAI } from "../test/fakes/chat/server.js";
import type { FakeStep } from "../test/fakes/chat/turns.js";
import { sessionHistory } from "../test/helpers/session-history.js";
import { median, notMeasured, spread, type Figures } from "./figure.js";
import { benchEdit, projectRepo, REAL_PROJECTS, type RealProject } from "./real-projects.js";
import { breakdown, breakdownText, longestGaps, medianBreakdown, type Breakdown } from "./session-phases.js";

const GOAL_MEDIAN = 1.1;
const GOAL_EACH = 1.2;

export interface ProjectRun {
  project: string;
  wallMs: number;
  workMs: number;
  ratio: number;
  phases: Breakdown;
}

function steps(project: RealProject, edit: { search: string; replace: string }): FakeStep[] {
  const p = project.edit.path;
  return [
    { toolCalls: [{ name: "read_file", arguments: { path: p } }] },
    { toolCalls: [{ name: "submit_plan", arguments: { summary: `Note in ${p}`, steps: [`Edit ${p}`, "Run the tests"] } }] },
    { toolCalls: [{ name: "edit_file", arguments: { path: p, edits: [edit] } }] },
    { toolCalls: [{ name: "run_tests", arguments: {} }] },
    { toolCalls: [{ name: "finish", arguments: { summary: `Edited ${p}; the tests pass.` } }] },
  ];
}

/**
 * One session on a fresh repository of the project, in its own data directory, or in
 * PATCHGATE_BENCH_DATA_DIR's: an operator's, which keeps what earlier processes left there (kept
 * credential walks, the store, dependency caches) and is not removed.
 */
async function oneSession(project: RealProject, root: string): Promise<ProjectRun> {
  const repo = projectRepo(project, root);
  const data = process.env.PATCHGATE_BENCH_DATA_DIR || mkdtempSync(path.join(root, "data-"));
  const server = await startFakeOpenAI(steps(project, benchEdit(project, repo)));
  let output = "";
  const terminal = new Writable({
    write(chunk: Buffer, _enc, done) {
      output += chunk.toString();
      done();
    },
  });
  // The operator's settings as `patchgate run` reads them, plus the scripted model and this data directory.
  const env = { ...processOperatorEnv(), OPENAI_API_KEY: "sk-bench", OPENAI_BASE_URL: server.baseURL, PATCHGATE_DATA_DIR: data, PATCHGATE_MODEL: "fake-model" };
  try {
    const startedAt = Date.now();
    const code = await runCommand(["--repo", repo, "--approve-plan", "--approve-writes", `Add a note to ${project.edit.path}`], terminal, env);
    const endedAt = Date.now();
    const events: StoredEvent[] = await sessionHistory(data);
    if (code !== 0 || !events.some((e) => e.type === "published"))
      throw new Error(`${project.name}: the session did not publish (exit ${code}):\n${output.slice(-3000)}`);
    const phases = breakdown(events, startedAt, endedAt);
    console.error(`session_overhead: ${project.name}: longest gaps between events: ${longestGaps(events, 6).join("; ")}`);
    // For a closer look: the whole timeline, one file per project.
    const keep = process.env.PATCHGATE_BENCH_TIMELINES;
    if (keep) writeFileSync(path.join(keep, `${project.name}.json`), JSON.stringify({ startedAt, endedAt, events }, null, 1));
    // The model answers at once here; its few ms stay in the wall time, as the issue's figure has them.
    const workMs = (phases.setup ?? 0) + (phases.tests ?? 0);
    const wallMs = endedAt - startedAt;
    return { project: project.name, wallMs, workMs, ratio: wallMs / workMs, phases };
  } finally {
    await server.close();
  }
}

function chosen(names: readonly string[]): RealProject[] {
  if (names.length === 0) return REAL_PROJECTS;
  return names.map((n) => {
    const p = REAL_PROJECTS.find((x) => x.name === n);
    if (!p) throw new Error(`no project ${n}; known: ${REAL_PROJECTS.map((x) => x.name).join(", ")}`);
    return p;
  });
}

/** The projects named in PATCHGATE_BENCH_PROJECTS (comma-separated), or all. */
export async function benchSessionOverhead(
  names: readonly string[] = (process.env.PATCHGATE_BENCH_PROJECTS ?? "").split(",").filter(Boolean),
): Promise<Figures> {
  keepHelper({ startNow: true });
  const root = mkdtempSync(path.join(os.tmpdir(), "pg-bench-overhead-"));
  const runs: ProjectRun[] = [];
  const failed: string[] = [];
  try {
    for (const project of chosen(names)) {
      try {
        const run = await oneSession(project, root);
        runs.push(run);
        console.error(
          `session_overhead: ${project.name} (${project.origin}): ${(run.wallMs / 1000).toFixed(1)} s for ${((run.phases.setup ?? 0) / 1000).toFixed(1)} s of setup + ` +
            `${((run.phases.tests ?? 0) / 1000).toFixed(1)} s of tests = ${run.ratio.toFixed(3)}; Patchgate's own: ${breakdownText(run.phases)}`,
        );
      } catch (e) {
        failed.push(`${project.name}: ${(e as Error).message.split("\n")[0]}`);
        console.error(`session_overhead: ${project.name} failed:`, e);
      }
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  if (runs.length === 0) {
    const why = `no session ran: ${failed.join("; ")}`;
    return { session_overhead: notMeasured(why, GOAL_MEDIAN), session_overhead_max: notMeasured(why, GOAL_EACH) };
  }
  const ratios = runs.map((r) => r.ratio);
  const per = runs.map((r) => `${r.project} ${r.ratio.toFixed(2)}`).join(", ");
  const own = breakdownText(medianBreakdown(runs.map((r) => r.phases)));
  const note = `${runs.length} projects (${per})${failed.length ? `; failed: ${failed.join("; ")}` : ""}; median of Patchgate's own phases: ${own}`;
  const worst = runs.reduce((a, b) => (b.ratio > a.ratio ? b : a));
  return {
    session_overhead: {
      measured: `median session ${(median(runs.map((r) => r.wallMs)) / 1000).toFixed(1)} s`,
      baseline: `median setup + test runs ${(median(runs.map((r) => r.workMs)) / 1000).toFixed(1)} s`,
      ratio: median(ratios),
      goal: GOAL_MEDIAN,
      ...spread(ratios),
      note,
    },
    session_overhead_max: {
      measured: `${worst.project}: ${(worst.wallMs / 1000).toFixed(1)} s`,
      baseline: `its setup + test runs ${(worst.workMs / 1000).toFixed(1)} s`,
      ratio: worst.ratio,
      goal: GOAL_EACH,
      note: `the worst of the ${runs.length} projects`,
    },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log(JSON.stringify(await benchSessionOverhead(process.argv.slice(2)), null, 2));
}

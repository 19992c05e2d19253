/**
 * step_overhead_ms: the runtime's own work per step, with a model that answers at once. A real
 * session (SQLite file, real clone, the whole loop: budget, compaction trigger, context, policy,
 * tools, ledger) runs 200 read-only steps; the time from each answer to the next request is all
 * Patchgate's. Three sessions; the figure is the median step, min/max over the sessions' medians.
 * Run alone: `npx tsx bench/step-overhead.ts`.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createSession, prepareWorkspace } from "../src/agent/session-service.js";
import { resumeSession } from "../src/agent/run-session.js";
import { parseRepoConfig } from "../src/config/load-repo-config.js";
import { SqliteSessionStore } from "../src/store/sqlite-store.js";
import { median, ms, percentile, spread, type Figures } from "./figure.js";
import { FILES, makeCodeRepo, ZeroLatencyModel } from "./fixtures.js";

const STEPS = 200;
const SESSIONS = 3;
const GOAL_MS = 5;

/** The gaps between model calls, and the time spent in the ledger's durable commits (fsync). */
async function oneSession(root: string, source: string, n: number): Promise<{ gaps: number[]; commitMs: number }> {
  const store = SqliteSessionStore.open(path.join(root, `s${n}.sqlite`));
  let commitMs = 0;
  const append = store.append.bind(store);
  store.append = async (...a: Parameters<typeof append>) => {
    const t = performance.now();
    try {
      return await append(...a);
    } finally {
      commitMs += performance.now() - t;
    }
  };
  try {
    const ledger = await createSession(store, {
      task: { title: "Parser drops the last line", body: "The parser drops the last line of its input.", source: { kind: "cli", repo: source } },
      model: "zero-latency",
      settings: { maxStepsPerResume: STEPS + 10 },
      sessionId: `step-${n}`,
    });
    const workspace = await prepareWorkspace(ledger, { source, dir: path.join(root, `ws${n}`) });
    const cfg = parseRepoConfig('test: "true"\n');
    if (!cfg.ok) throw new Error(cfg.error.message);
    const llm = new ZeroLatencyModel(STEPS);
    const outcome = await resumeSession(ledger, { llm, sandbox: null, workspace, repoConfig: cfg.config });
    if (outcome.kind !== "parked") throw new Error(`bench session ended ${JSON.stringify(outcome)}, expected parked after submit_plan`);
    const failed = ledger.history.filter((e) => e.type === "tool_result" && !e.result.ok).length;
    if (failed > 0) throw new Error(`bench session: ${failed} tool calls failed`);
    return { gaps: llm.gaps, commitMs };
  } finally {
    await store.close();
  }
}

export async function benchStepOverhead(): Promise<Figures> {
  const root = mkdtempSync(path.join(os.tmpdir(), "pg-bench-steps-"));
  try {
    const source = path.join(root, "source");
    mkdirSync(source);
    makeCodeRepo(source);
    const medians: number[] = [];
    const all: number[] = [];
    let commitMs = 0;
    for (let n = 0; n < SESSIONS; n++) {
      const run = await oneSession(root, source, n);
      medians.push(median(run.gaps));
      all.push(...run.gaps);
      commitMs += run.commitMs;
    }
    const s = spread(medians);
    return {
      step_overhead_ms: {
        measured: `median ${ms(median(all))}, p95 ${ms(percentile(all, 95))}, max ${ms(Math.max(...all))} per step (session medians ${ms(s.min)}–${ms(s.max)})`,
        baseline: "— (absolute)",
        ratio: median(all),
        goal: GOAL_MS,
        ...s,
        note: `${SESSIONS} sessions × ${STEPS} read-only steps (read_file/search_code/list_files) on a ${FILES}-file repository, zero-latency model; of the mean step, ${ms(commitMs / all.length)} is the SQLite ledger's durable commits (synchronous=FULL)`,
      },
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log(JSON.stringify(await benchStepOverhead(), null, 2));
}

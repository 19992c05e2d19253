/**
 * scaleout_overhead: the latency-bound session of capacity_latency_bound (./latency-session.ts) on
 * PostgreSQL's durable queue, run by 3 worker processes against 1 process with the same total slots.
 * Each side starts its workers (./scaleout-worker.ts, through tsx, so both pay the same start-up),
 * waits until they take work, then queues the sessions over 10 installations and times until none
 * is open. The figure is the throughput of 3 workers over that of 1 (sessions per second). Sizes:
 * PATCHGATE_BENCH_SCALEOUT_SESSIONS (default 30) and PATCHGATE_BENCH_SCALEOUT_SLOTS (total slots,
 * a multiple of 3; default 15). Run alone: `npx tsx bench/scaleout.ts`.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath, pathToFileURL } from "node:url";
import { DurableQueue } from "../src/queue/pg/durable-queue.js";
import { PostgresSessionStore } from "../src/store/pg-store.js";
import { makeRepo } from "./concurrency.js";
import { notMeasured, type Figures } from "./figure.js";
import { CALLS, LATENCY_MS, TEST } from "./latency-session.js";
import { startCluster } from "./pg-cluster.js";

const GOAL = 0.9;
const WORKERS = 3;
const INSTALLATIONS = 10;
const child = fileURLToPath(new URL("./scaleout-worker.ts", import.meta.url));

export function scaleoutSizes(env: NodeJS.ProcessEnv): { sessions: number; slots: number } {
  const sessions = Number(env.PATCHGATE_BENCH_SCALEOUT_SESSIONS ?? 30);
  const slots = Number(env.PATCHGATE_BENCH_SCALEOUT_SLOTS ?? 15);
  if (!Number.isInteger(sessions) || sessions < 1)
    throw new Error(`PATCHGATE_BENCH_SCALEOUT_SESSIONS: not a session count: ${env.PATCHGATE_BENCH_SCALEOUT_SESSIONS}`);
  if (!Number.isInteger(slots) || slots < WORKERS || slots % WORKERS !== 0)
    throw new Error(`PATCHGATE_BENCH_SCALEOUT_SLOTS: not a multiple of ${WORKERS}: ${env.PATCHGATE_BENCH_SCALEOUT_SLOTS}`);
  return { sessions, slots };
}

/** A worker process, resolved once it prints `ready`; rejected if it exits first. */
function startWorker(env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const p = spawn(process.execPath, ["--import", "tsx", child], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    p.once("exit", (code, signal) => reject(new Error(`a scale-out worker exited before it was ready (${signal ?? code})`)));
    createInterface({ input: p.stdout! }).on("line", (line) => {
      if (line === "ready") resolve(p);
    });
  });
}

function stopWorker(p: ChildProcess): Promise<void> {
  if (p.exitCode !== null || p.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    p.removeAllListeners("exit");
    p.once("exit", () => resolve());
    p.kill("SIGTERM");
  });
}

/** `workers` processes sharing `slots`: the seconds from queueing `sessions` sessions until none is open. */
async function round(
  label: string,
  workers: number,
  o: { url: string; store: PostgresSessionStore; root: string; source: string; sessions: number; slots: number },
): Promise<number> {
  const procs: ChildProcess[] = [];
  const receiver = await DurableQueue.start({ url: o.url, pool: o.store.pool, slots: 0 });
  try {
    for (let w = 0; w < workers; w++) {
      const root = path.join(o.root, `${label}-w${w}`);
      mkdirSync(root);
      const env = { PATCHGATE_BENCH_DB: o.url, PATCHGATE_BENCH_SLOTS: String(o.slots / workers), PATCHGATE_BENCH_ROOT: root, PATCHGATE_BENCH_SOURCE: o.source };
      procs.push(await startWorker(env));
    }
    const started = performance.now();
    for (let i = 0; i < o.sessions; i++) {
      const session = `${label}-${i}`;
      receiver.enqueue({
        key: `inst-${i % INSTALLATIONS}/repo#${session}`,
        name: session,
        group: `inst-${i % INSTALLATIONS}`,
        spec: { kind: "bench", session },
        run: () => Promise.resolve(),
      });
    }
    await receiver.idle();
    const seconds = (performance.now() - started) / 1000;
    const { rows } = await o.store.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM queue_items WHERE name LIKE $1 AND state <> 'done'", [
      `${label}-%`,
    ]);
    if (rows[0]!.n > 0) throw new Error(`${label}: ${rows[0]!.n} of ${o.sessions} sessions did not end done`);
    return seconds;
  } finally {
    for (const p of procs) await stopWorker(p);
    await receiver.close();
  }
}

export async function benchScaleout(): Promise<Figures> {
  const { sessions, slots } = scaleoutSizes(process.env);
  const cluster = await startCluster();
  if ("reason" in cluster) return { scaleout_overhead: notMeasured(cluster.reason, GOAL, "higher") };
  const root = mkdtempSync(path.join(os.tmpdir(), "pg-bench-scaleout-"));
  const store = new PostgresSessionStore(cluster.url);
  try {
    await store.ready();
    const source = path.join(root, "source");
    mkdirSync(source);
    makeRepo(source);
    const o = { url: cluster.url, store, root, source, sessions, slots };
    const one = await round("one", 1, o);
    console.error(`scaleout: 1 process, ${slots} slots: ${sessions} sessions in ${one.toFixed(1)} s`);
    const three = await round("three", WORKERS, o);
    console.error(`scaleout: ${WORKERS} processes, ${slots / WORKERS} slots each: ${sessions} sessions in ${three.toFixed(1)} s`);
    return {
      scaleout_overhead: {
        measured: `${WORKERS} workers × ${slots / WORKERS} slots: ${(sessions / three).toFixed(3)} sessions/s (${three.toFixed(1)} s)`,
        baseline: `1 process × ${slots} slots: ${(sessions / one).toFixed(3)} sessions/s (${one.toFixed(1)} s)`,
        ratio: one / three,
        goal: GOAL,
        better: "higher",
        note: `${sessions} sessions over ${INSTALLATIONS} installations on PostgreSQL, each ${CALLS} model calls of ${LATENCY_MS / 1000} s and 2 runs of \`${TEST}\` in bubblewrap; the 1-process side ran first`,
      },
    };
  } finally {
    await store.close();
    cluster.stop();
    rmSync(root, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log(JSON.stringify(await benchScaleout(), null, 2));
}

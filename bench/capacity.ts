/**
 * capacity_latency_bound and capacity_rss_per_session_mb: one worker process (this one), N sessions
 * at once, each 10 model calls of 3 s and two runs of a small real suite in bubblewrap (the baseline,
 * and one run_tests call). The figure is the largest N tried whose makespan stays within 1.15× one
 * session alone; the RSS is what this process and its spawn helper grow by per active session at
 * that N (the sandboxes' own processes are not counted). Sizes: PATCHGATE_BENCH_CAPACITY_N, a list
 * tried in order until one is over the bound (default 25,50,100,150,200).
 * Run alone: `npx tsx bench/capacity.ts`.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { resourceLimits } from "../src/agent/resource-limits.js";
import { helper } from "../src/process/helper-connection.js";
import { selectSandbox } from "../src/sandbox/select.js";
import type { Sandbox } from "../src/sandbox/types.js";
import { SqliteSessionStore } from "../src/store/sqlite-store.js";
import { cpuNow, cpuWords, machineCpu, makeRepo, spentSince, testRunAlone, type SessionCpu } from "./concurrency.js";
import { median, notMeasured, type Figures } from "./figure.js";
import { openCpuAccount, type CpuAccount } from "./cpu-account.js";
import { CALLS, LATENCY_MS, latencySession, TEST } from "./latency-session.js";

const BOUND = 1.15;
const GOAL_N = 100;
const GOAL_RSS_MB = 8;

/** VmRSS of a process, in MB. */
function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8")
    .split("\n")
    .find((l) => l.startsWith("VmRSS:"));
  return Number(line?.split(/\s+/)[1] ?? Number.NaN) / 1024;
}

const workerRss = (): number => rssMb(process.pid) + rssMb(helper().pid!);

interface Round {
  makespanMs: number;
  rssPerSessionMb: number;
  /** CPU of this process and everything it started over the round, per session, and by whom; null without an account. */
  cpu: SessionCpu | null;
  /** How busy the machine's cores were over the round (every process on it, not only these), 0–1. */
  busy: number;
}

/** N sessions at once: the makespan, the peak growth of the worker's RSS (sampled every 100 ms) per session, and their CPU. */
async function round(n: number, store: SqliteSessionStore, root: string, source: string, sandbox: Sandbox, account: CpuAccount | null): Promise<Round> {
  const dir = path.join(root, `n${n}`);
  mkdirSync(dir);
  global.gc?.();
  const before = workerRss();
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, workerRss())), 100);
  const started = performance.now();
  const cpuBefore = account ? cpuNow(account) : null;
  const machineBefore = machineCpu();
  try {
    await Promise.all(Array.from({ length: n }, (_, i) => latencySession(store, dir, source, sandbox, `n${n}-${i}`)));
  } finally {
    clearInterval(sampler);
  }
  const machine = machineCpu();
  const busy = (machine.busy - machineBefore.busy) / (machine.total - machineBefore.total);
  const spent = account && cpuBefore ? spentSince(account, cpuBefore) : null;
  const cpu = spent && { totalMs: spent.totalMs / n, appMs: spent.appMs / n, helperMs: spent.helperMs / n, othersMs: spent.othersMs / n };
  return { makespanMs: performance.now() - started, rssPerSessionMb: (peak - before) / n, cpu, busy };
}

/**
 * The sessions the cores can serve within the bound at all, whatever the scheduling: N sessions need
 * N × their CPU, and the cores give at most cores × BOUND × one alone in that time.
 */
function cpuCeiling(alone: number, cpuPerSessionMs: number, cores: number): number {
  return Math.floor((cores * BOUND * alone) / cpuPerSessionMs);
}

/**
 * The sessions of a round start together, so their midway test runs arrive together too, and the
 * last of them ends no sooner than all their CPU over the cores: that wait must fit in what the bound
 * leaves beyond one alone. About the most sessions in step that fit, whatever the scheduling (it
 * leaves out the rest of their work, so the true number is lower).
 */
function inStepCeiling(alone: number, runCpuMs: number, cores: number): number {
  return Math.floor(((BOUND - 1) * alone * cores) / runCpuMs);
}

export function capacitySizes(text: string | undefined): number[] {
  const sizes = (text ?? "25,50,100,150,200").split(",").map((s) => Number(s.trim()));
  if (sizes.some((n) => !Number.isInteger(n) || n < 1)) throw new Error(`PATCHGATE_BENCH_CAPACITY_N: not a list of session counts: ${text}`);
  return sizes;
}

export async function benchCapacity(): Promise<Figures> {
  const chosen = await selectSandbox("bubblewrap");
  if (chosen.sandbox === null) {
    const why = `no bubblewrap: ${chosen.reason}`;
    return { capacity_latency_bound: notMeasured(why, GOAL_N, "higher"), capacity_rss_per_session_mb: notMeasured(why, GOAL_RSS_MB) };
  }
  const sandbox = chosen.sandbox;
  const root = mkdtempSync(path.join(os.tmpdir(), "pg-bench-capacity-"));
  const store = SqliteSessionStore.open(path.join(root, "bench.sqlite"));
  const opened = openCpuAccount([process.pid, helper().pid!]);
  const account = "reason" in opened ? null : opened;
  if (!account) console.error(`capacity: no CPU account: ${"reason" in opened ? opened.reason : ""}`);
  const cores = os.availableParallelism();
  try {
    const source = path.join(root, "source");
    mkdirSync(source);
    makeRepo(source);
    // The CPU of one test run inside the sandbox (its processes, not the sandbox's start), alone.
    const runs: number[] = [];
    for (let i = 0; i < 3; i++) runs.push((await testRunAlone(sandbox, source)).cpuMs);
    const runCpuMs = median(runs);
    const first = await round(1, store, root, source, sandbox, account);
    const alone = first.makespanMs;
    const cpu = (r: Round, n: number) =>
      (r.cpu === null
        ? ""
        : `, CPU ${(r.cpu.totalMs / 1000).toFixed(2)} s each (${cpuWords(r.cpu)}; the cores allow ≤ ${cpuCeiling(alone, r.cpu.totalMs, cores)}); ` +
          `these sessions kept ${(((n * r.cpu.totalMs) / r.makespanMs / cores) * 100).toFixed(0)} % of the cores busy, the machine's cores were ${(r.busy * 100).toFixed(0)} % busy`) +
      (n > 1
        ? `; their midway runs arriving together need ${((n * runCpuMs) / cores / 1000).toFixed(1)} s of the cores, the bound leaves ${(((BOUND - 1) * alone) / 1000).toFixed(1)} s`
        : "");
    console.error(`capacity: one alone ${(alone / 1000).toFixed(1)} s${cpu(first, 1)}`);
    const tried: string[] = [];
    let best: { n: number; rssPerSessionMb: number } | null = null;
    let last: { n: number; rssPerSessionMb: number } | null = null;
    for (const n of capacitySizes(process.env.PATCHGATE_BENCH_CAPACITY_N)) {
      const r = await round(n, store, root, source, sandbox, account);
      const ratio = r.makespanMs / alone;
      tried.push(`N=${n}: ${(r.makespanMs / 1000).toFixed(1)} s = ${ratio.toFixed(3)}×, ${r.rssPerSessionMb.toFixed(2)} MB each${cpu(r, n)}`);
      console.error(`capacity: ${tried.at(-1)}`);
      last = { n, rssPerSessionMb: r.rssPerSessionMb };
      if (ratio > BOUND) break;
      best = last;
    }
    const rss = best ?? last!;
    const places = resourceLimits().sandboxRuns.size;
    const inStep = `a test run takes ${(runCpuMs / 1000).toFixed(2)} s of CPU alone, so about ${inStepCeiling(alone, runCpuMs, cores)} sessions started together fit within ${BOUND}×, however they are scheduled`;
    const setting = `one session alone ${(alone / 1000).toFixed(1)} s; each ${CALLS} model calls of ${LATENCY_MS / 1000} s and 2 runs of \`${TEST}\` in bubblewrap; ${places} sandboxed runs at once`;
    return {
      capacity_latency_bound: {
        measured: best ? `${best.n} sessions within ${BOUND}× one alone` : `none of the sizes tried within ${BOUND}× one alone`,
        baseline: tried.join("; "),
        ratio: best?.n ?? 0,
        goal: GOAL_N,
        better: "higher",
        note: `${setting}; ${inStep}; the largest size tried is the ceiling of this figure; "the cores allow" is ${cores} cores × ${BOUND} × one alone over a session's CPU at that size (this process and all it started)`,
      },
      capacity_rss_per_session_mb: {
        measured: `+${rss.rssPerSessionMb.toFixed(2)} MB per active session at N=${rss.n}`,
        baseline: "— (absolute)",
        ratio: rss.rssPerSessionMb,
        goal: GOAL_RSS_MB,
        note: "peak VmRSS of this process and its spawn helper over the round, less before it, per session; the sandboxes' processes are the sandbox's own",
      },
    };
  } finally {
    account?.close();
    await store.close();
    rmSync(root, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log(JSON.stringify(await benchCapacity(), null, 2));
}

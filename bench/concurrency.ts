/**
 * event_loop_p99_ms: 50 sessions at once, each a real clone, the baseline test run in the bubblewrap
 * sandbox (one small `node --test` suite) and 10 model calls of 200 ms, all in this process; the
 * event-loop delay is sampled while they run. A diagnostic line (stderr) sets the makespan against
 * its bounds and the CPU the sessions need, counted in a cgroup (./cpu-account.ts): whether the
 * scheduling loses time the cores had. How many sessions one worker carries when the model is slow
 * is `capacity_latency_bound` (./capacity.ts).
 * Run alone: `npx tsx bench/concurrency.ts`.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { createSession, prepareWorkspace } from "../src/agent/session-service.js";
import { resumeSession } from "../src/agent/run-session.js";
import { withSession, sessionExtras } from "../src/agent/session-sandbox.js";
import type { LLMClient, LLMRequest, LLMResponse } from "../src/agent/llm/types.js";
import { parseRepoConfig } from "../src/config/load-repo-config.js";
import { resourceLimits } from "../src/agent/resource-limits.js";
import { helper } from "../src/process/helper-connection.js";
import { openCpuAccount, type CpuAccount } from "./cpu-account.js";
import { selectSandbox } from "../src/sandbox/select.js";
import type { Sandbox } from "../src/sandbox/types.js";
import { SqliteSessionStore } from "../src/store/sqlite-store.js";
import { median, ms, notMeasured, spread, type Figures } from "./figure.js";

const SESSIONS = 50;
const STEPS = 10;
const LATENCY_MS = 200;
const ROUNDS = 1;
const TEST = "node --test";

export function makeRepo(dir: string): void {
  mkdirSync(path.join(dir, ".github"), { recursive: true });
  mkdirSync(path.join(dir, "test"));
  mkdirSync(path.join(dir, "src"));
  writeFileSync(path.join(dir, ".github/patchgate.yml"), `test: ${TEST}\n`);
  writeFileSync(path.join(dir, "src/add.js"), "export const add = (a, b) => a + b;\n");
  for (const n of [1, 2]) {
    writeFileSync(
      path.join(dir, `test/t${n}.test.mjs`),
      `import test from "node:test";\nimport assert from "node:assert";\nimport { add } from "../src/add.js";\nfor (let i = 0; i < 5; i++) test("adds " + i, () => assert.equal(add(i, ${n}), i + ${n}));\n`,
    );
  }
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "core.hooksPath=/dev/null", "-c", "user.name=b", "-c", "user.email=b@b", ...args], { cwd: dir, stdio: "pipe" });
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("commit", "-q", "-m", "fixture");
}

/** Answers after LATENCY_MS: read_file calls; the loop's step limit ends the session after STEPS calls. */
class SlowModel implements LLMClient {
  readonly model = "slow";
  private n = 0;
  async complete(_req: LLMRequest): Promise<LLMResponse> {
    await new Promise((r) => setTimeout(r, LATENCY_MS));
    const id = `call_${this.n++}`;
    const toolCalls = [{ id, name: "read_file", arguments: JSON.stringify({ path: this.n % 2 ? "src/add.js" : "test/t1.test.mjs" }) }];
    return {
      content: null,
      toolCalls,
      usage: { promptTokens: 1000, completionTokens: 20, estimated: false },
      model: this.model,
      latencyMs: LATENCY_MS,
      retries: 0,
    };
  }
}

const HASH = "c".repeat(64);

async function oneSession(store: SqliteSessionStore, root: string, source: string, sandbox: Sandbox, id: string): Promise<number> {
  const ledger = await createSession(store, { task: { title: "bench", body: "bench", source: { kind: "cli", repo: source } }, model: "slow", sessionId: id });
  const workspace = await prepareWorkspace(ledger, { source, dir: path.join(root, "ws", id) });
  // Straight to execute mode: the baseline test run comes first, then the model's steps.
  await ledger.append(
    { type: "plan_submitted", plan: { summary: "bench", steps: ["read"] }, hash: HASH },
    { type: "plan_approved", hash: HASH, by: { login: "bench", via: "comment" } },
  );
  const cfg = parseRepoConfig(`test: ${TEST}\n`);
  if (!cfg.ok) throw new Error(cfg.error.message);
  await resumeSession(ledger, { llm: new SlowModel(), sandbox, workspace, repoConfig: cfg.config, maxSteps: STEPS });
  const calls = ledger.history.filter((e) => e.type === "llm_called").length;
  const baseline = ledger.state.baseline;
  if (calls !== STEPS || baseline === null || baseline.exitCode !== 0)
    throw new Error(`session ${id}: ${calls} model calls, baseline ${JSON.stringify(baseline)}`);
  return baseline.durationMs;
}

/**
 * One sandboxed test run alone, as a session's sandbox runs it: its wall time (the CPU bound: the
 * sandbox's start is work too), and the CPU time of the processes it ran inside (the shell's
 * `times`: user + system of its waited-for children), printed to show how much of it the tests are.
 */
export async function testRunAlone(sandbox: Sandbox, workspace: string): Promise<{ wallMs: number; cpuMs: number }> {
  const t = performance.now();
  const r = await withSession(sandbox, sessionExtras(null, undefined)).run({
    argv: ["sh", "-c", `${TEST}; code=$?; times; exit $code`],
    workspace,
    timeoutMs: 60_000,
  });
  const wallMs = performance.now() - t;
  if (r.exitCode !== 0) throw new Error(`test run failed: ${r.stderr}`);
  return { wallMs, cpuMs: childrenCpuMs(r.stdout) };
}

/** The second line of `times` (children: user, system), as `0m0.190000s 0m0.040000s` (dash) or `0m0.190s 0m0.040s` (bash). */
export function childrenCpuMs(stdout: string): number {
  const lines = stdout.trimEnd().split("\n");
  const children = lines.at(-1) ?? "";
  const parts = [...children.matchAll(/(\d+)m([\d.]+)s/g)].map((m) => (Number(m[1]) * 60 + Number(m[2])) * 1000);
  if (parts.length !== 2) throw new Error(`no children's times in the test run's output: ${JSON.stringify(children)}`);
  return parts[0]! + parts[1]!;
}

/** CPU (ms) spent by a session, or by the 50, and by whom. */
export interface SessionCpu {
  /** Every process it ran (the cgroup's account, ./cpu-account.ts). */
  totalMs: number;
  /** This process, all its threads (the ledger's writer, the loop, the tools). */
  appMs: number;
  /** The spawn helper itself: the forks. */
  helperMs: number;
  /** The rest: git, bwrap, the sandbox's supervisor, the test run. */
  othersMs: number;
}

/**
 * What one whole session costs in CPU, everything included, the median of 3 run one at a time. The
 * concurrent makespan cannot beat 50 of these over the cores, whatever the scheduling.
 */
async function sessionsAlone(account: CpuAccount, store: SqliteSessionStore, root: string, source: string, sandbox: Sandbox): Promise<SessionCpu> {
  const runs: SessionCpu[] = [];
  for (let i = 0; i < 3; i++) {
    const before = cpuNow(account);
    await oneSession(store, root, source, sandbox, `alone-${path.basename(root)}-${i}`);
    runs.push(spentSince(account, before));
  }
  return runs.sort((a, b) => a.totalMs - b.totalMs)[1]!;
}

export type CpuNow = { pid: number; totalMs: number; appMs: number; helperMs: number };

export function cpuNow(account: CpuAccount): CpuNow {
  const pid = helper().pid!;
  const own = process.cpuUsage();
  return { pid, totalMs: account.usedMs(), appMs: (own.user + own.system) / 1000, helperMs: processCpuMs(pid) };
}

export function spentSince(account: CpuAccount, before: CpuNow): SessionCpu {
  const now = cpuNow(account);
  // A new helper would not be in the account: it is joined once, when the bench starts.
  if (now.pid !== before.pid) throw new Error("the spawn helper was replaced while measuring");
  const totalMs = now.totalMs - before.totalMs;
  const appMs = now.appMs - before.appMs;
  const helperMs = now.helperMs - before.helperMs;
  return { totalMs, appMs, helperMs, othersMs: totalMs - appMs - helperMs };
}

/** /proc/<pid>/stat's utime + stime, in ms. */
function processCpuMs(pid: number): number {
  // The fields after the command name, which is in parentheses and may hold spaces: state is field 3.
  const after = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ").at(-1)!.split(" ");
  return ((Number(after[14 - 3]) + Number(after[15 - 3])) * 1000) / TICKS_PER_SECOND;
}

export function cpuWords(c: SessionCpu): string {
  return `Patchgate's own process ${ms(c.appMs)}, the spawn helper ${ms(c.helperMs)}, git, bwrap and the test run ${ms(c.othersMs)}`;
}

/** What the sessions cost in CPU, alone and together, against the ideal the figure is measured by. */
function cpuLine(together: SessionCpu, alone: SessionCpu, at: { makespan: number; ideal: number; cores: number }): string {
  const each = (x: number) => x / SESSIONS;
  const perSession: SessionCpu = {
    totalMs: each(together.totalMs),
    appMs: each(together.appMs),
    helperMs: each(together.helperMs),
    othersMs: each(together.othersMs),
  };
  const allCpuBound = (SESSIONS * alone.totalMs) / at.cores;
  return (
    `CPU of one session alone ${ms(alone.totalMs)} (${cpuWords(alone)}), so ${SESSIONS} need ${ms(allCpuBound)} on ${at.cores} cores: ` +
    `the ideal is ${((at.ideal / allCpuBound) * 100).toFixed(0)} % of that, the makespan ${(at.makespan / allCpuBound).toFixed(2)}×; ` +
    `CPU of a session among the ${SESSIONS} ${ms(perSession.totalMs)} (${cpuWords(perSession)})`
  );
}

/** /proc counts in USER_HZ, 100 on every Linux architecture Node runs on. */
const TICKS_PER_SECOND = 100;

/** The machine's CPU time so far (/proc/stat, in ticks): busy is everything but idle and iowait. */
export function machineCpu(): { busy: number; total: number } {
  const ticks = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = ticks.reduce((a, b) => a + b, 0);
  return { busy: total - ticks[3]! - ticks[4]!, total };
}

export async function benchConcurrency(): Promise<Figures> {
  const chosen = await selectSandbox("bubblewrap");
  if (chosen.sandbox === null) {
    const why = `no bubblewrap: ${chosen.reason}`;
    return { event_loop_p99_ms: notMeasured(why, 20) };
  }
  const sandbox = chosen.sandbox;
  const root = mkdtempSync(path.join(os.tmpdir(), "pg-bench-conc-"));
  // Joined before anything else runs: the helper is already up (selectSandbox ran `true` through it).
  const opened = openCpuAccount([process.pid, helper().pid!]);
  const account = "reason" in opened ? null : opened;
  try {
    const source = path.join(root, "source");
    mkdirSync(source);
    makeRepo(source);
    const cores = os.availableParallelism();
    const p99s: number[] = [];
    const lines: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const runs: { wallMs: number; cpuMs: number }[] = [];
      for (let i = 0; i < 3; i++) runs.push(await testRunAlone(sandbox, source));
      const alone = runs.map((r) => r.wallMs);
      const aloneCpu = runs.map((r) => r.cpuMs);
      const store = SqliteSessionStore.open(path.join(root, `r${round}.sqlite`));
      const single = account && (await sessionsAlone(account, store, path.join(root, `alone${round}`), source, sandbox));
      const loop = monitorEventLoopDelay({ resolution: 10 });
      loop.enable();
      const cpuBefore = account && cpuNow(account);
      const machineBefore = machineCpu();
      const started = performance.now();
      await Promise.all(Array.from({ length: SESSIONS }, (_, i) => oneSession(store, path.join(root, `r${round}`), source, sandbox, `c${round}-${i}`)));
      const makespan = performance.now() - started;
      const spent = account && cpuBefore && spentSince(account, cpuBefore);
      const machine = machineCpu();
      const busy = (machine.busy - machineBefore.busy) / (machine.total - machineBefore.total);
      loop.disable();
      await store.close();
      const latencyBound = STEPS * LATENCY_MS;
      const cpuBound = (SESSIONS * median(alone)) / cores;
      const ideal = Math.max(latencyBound, cpuBound);
      p99s.push(loop.percentile(99) / 1e6);
      lines.push(
        `round ${round + 1}: makespan ${ms(makespan)}, ${(ideal / makespan).toFixed(3)} of its ideal; bounds: latency chain ${ms(latencyBound)}, sandboxed CPU ${SESSIONS} × ${ms(median(alone))} / ${cores} cores = ${ms(cpuBound)}; ` +
          `event loop p99 ${ms(loop.percentile(99) / 1e6)}, max ${ms(loop.max / 1e6)}; one run alone ${ms(median(alone))} wall, of it ${ms(median(aloneCpu))} CPU in the sandbox's processes; ` +
          `the machine's cores ${(busy * 100).toFixed(0)} % busy meanwhile; ` +
          (spent === null || single === null
            ? `CPU not counted: ${"reason" in opened ? opened.reason : ""}`
            : cpuLine(spent, single, { makespan, ideal, cores })),
      );
    }
    const limits = resourceLimits();
    const setting = `limits: ${limits.clones.size} clones, ${limits.sandboxRuns.size} sandbox runs at once`;
    for (const l of lines) console.error(`concurrency (diagnostic; ${setting}): ${l}`);
    return {
      event_loop_p99_ms: {
        measured: `p99 ${p99s.map((p) => ms(p)).join(", ")} (per round)`,
        baseline: "— (absolute)",
        ratio: median(p99s),
        goal: 20,
        ...spread(p99s),
        note: `perf_hooks.monitorEventLoopDelay (10 ms resolution) while ${SESSIONS} sessions run (each a clone, the baseline \`${TEST}\` in bubblewrap, ${STEPS} model calls of ${LATENCY_MS} ms)`,
      },
    };
  } finally {
    account?.close();
    rmSync(root, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log(JSON.stringify(await benchConcurrency(), null, 2));
}

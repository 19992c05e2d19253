/**
 * What the sandbox costs a test run: the same command bare and in bubblewrap, interleaved so that a
 * noisy neighbour slows both alike, compared by median. Bare runs go through the same supervisor
 * (spawn, capture, timeout), so the ratio is the sandbox itself. Run alone: `npx tsx bench/sandbox.ts`.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { buildBubblewrapArgv } from "../src/sandbox/bubblewrap-argv.js";
import { BubblewrapSandbox } from "../src/sandbox/bubblewrap.js";
import { detectBwrapHost } from "../src/sandbox/host-layout.js";
import { which } from "../src/toolchain/layouts/fs.js";
import { sandboxHostsFile } from "../src/sandbox/sandbox-hosts.js";
import { prepareRun } from "../src/sandbox/prepare-run.js";
import { selectSandbox } from "../src/sandbox/select.js";
import { supervise } from "../src/sandbox/supervise.js";
import type { Sandbox } from "../src/sandbox/types.js";
import { median, ms, notMeasured, spread, type FigureResult, type Figures } from "./figure.js";

const RUNS = 40;
const RATIO_GOAL = 1.1;
const START_GOAL_MS = 20;

async function timed(run: () => Promise<{ exitCode: number | null }>): Promise<number> {
  const t = performance.now();
  const r = await run();
  if (r.exitCode !== 0) throw new Error(`bench command failed with exit ${r.exitCode}`);
  return performance.now() - t;
}

interface Compared {
  bare: number;
  boxed: number;
  /** boxed/bare of each interleaved pair. */
  pairs: number[];
  bareAll: number[];
  boxedAll: number[];
}

/** Median wall time of `argv` bare and sandboxed, RUNS each, alternating. */
async function compare(sandbox: Sandbox, workspace: string, argv: string[]): Promise<Compared> {
  const bare: number[] = [];
  const boxed: number[] = [];
  const hostEnv = { PATH: "/usr/local/bin:/usr/bin:/bin", HOME: workspace };
  for (let i = 0; i < RUNS; i++) {
    bare.push(await timed(() => supervise({ command: argv[0], args: argv.slice(1), hostEnv, hostCwd: workspace, timeoutMs: 30_000, maxOutputBytes: 1 << 20 })));
    boxed.push(await timed(() => sandbox.run({ argv, workspace, timeoutMs: 30_000 })));
  }
  return { bare: median(bare), boxed: median(boxed), pairs: boxed.map((b, i) => b / bare[i]!), bareAll: bare, boxedAll: boxed };
}

function figure(m: Compared, what: string): FigureResult {
  const range = (xs: number[]) => `${ms(median(xs))} (${ms(Math.min(...xs))}–${ms(Math.max(...xs))})`;
  return {
    measured: `bubblewrap ${range(m.boxedAll)}`,
    baseline: `bare ${range(m.bareAll)}`,
    ratio: m.boxed / m.bare,
    goal: RATIO_GOAL,
    ...spread(m.pairs),
    note: `${what}, ${RUNS} runs each side, interleaved; min–max of the ratio over the pairs`,
  };
}

export const SANDBOX_IDS = ["sandbox_node", "sandbox_node_test"] as const;

export async function benchSandbox(): Promise<Figures> {
  const chosen = await selectSandbox("bubblewrap");
  if (chosen.sandbox === null) return Object.fromEntries(SANDBOX_IDS.map((id) => [id, notMeasured(`no bubblewrap: ${chosen.reason}`, RATIO_GOAL)]));
  const sandbox = chosen.sandbox;
  const workspace = await mkdtemp(path.join(os.tmpdir(), "pg-bench-"));
  try {
    // A small suite for `node --test`: three files of a few tests each.
    for (const n of [1, 2, 3]) {
      await writeFile(
        path.join(workspace, `s${n}.test.mjs`),
        `import test from "node:test";\nimport assert from "node:assert";\nfor (let i = 0; i < 5; i++) test("case " + i, () => assert.equal(i + ${n}, ${n} + i));\n`,
      );
    }
    // The form the tools' run_tests and run_command use: the session's long-lived sandbox.
    const session = sandbox.openSession?.() ?? null;
    const boxed = session ?? sandbox;
    const nodeExit = await compare(boxed, workspace, [process.execPath, "-e", "process.exit(0)"]).finally(() => session?.close());
    const oneShotExit = await compare(sandbox, workspace, [process.execPath, "-e", "process.exit(0)"]);
    const testSession = sandbox.openSession?.() ?? null;
    const nodeTest = await compare(testSession ?? sandbox, workspace, [process.execPath, "--test", "s1.test.mjs", "s2.test.mjs", "s3.test.mjs"]).finally(() =>
      testSession?.close(),
    );
    // The floor: bwrap with the same mounts and namespaces, without prlimit and the pids cgroup.
    const bwrap = (await which("bwrap")) ?? "bwrap";
    const floorArgs = buildBubblewrapArgv(prepareRun({ argv: ["true"], workspace, timeoutMs: 1 }), {
      mounts: [],
      hasGit: false,
      hostsFile: await sandboxHostsFile(),
      prlimit: "/usr/bin/prlimit",
    });
    const floorArgv = floorArgs.slice(0, floorArgs.indexOf("/usr/bin/prlimit")).concat("true");
    // As an ordinary user the pids cgroup is not needed (RLIMIT_NPROC works); measured here for `true` only.
    const host = await detectBwrapHost();
    const rlimitOnly = "reason" in host ? null : new BubblewrapSandbox({ ...host, processLimit: { kind: "rlimit" } });
    const start: number[] = [];
    const floor: number[] = [];
    const nonRoot: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      start.push(await timed(() => sandbox.run({ argv: ["true"], workspace, timeoutMs: 10_000 })));
      if (rlimitOnly) nonRoot.push(await timed(() => rlimitOnly.run({ argv: ["true"], workspace, timeoutMs: 10_000 })));
      floor.push(
        await timed(() => supervise({ command: bwrap, args: floorArgv, hostEnv: { PATH: "/usr/bin:/bin" }, timeoutMs: 10_000, maxOutputBytes: 1 << 20 })),
      );
    }
    console.error(
      [
        `sandbox: process limit via ${describeLimit(sandbox)}; figures from ${session ? "the session's long-lived sandbox" : "a sandbox per run"}`,
        `  node -e 0 with a sandbox per run (the one-shot form): ratio ${(oneShotExit.boxed / oneShotExit.bare).toFixed(3)}, ${median(oneShotExit.boxedAll).toFixed(1)} vs ${median(oneShotExit.bareAll).toFixed(1)} ms`,
        `  sandbox start (bubblewrap running \`true\`): ${median(start).toFixed(1)} ms (goal ≤ ${START_GOAL_MS} ms)`,
        `  of which bwrap alone (same namespaces and mounts, no prlimit, no cgroup): ${median(floor).toFixed(1)} ms`,
        `  as a non-root user would run it (prlimit, no cgroup): ${nonRoot.length ? `${median(nonRoot).toFixed(1)} ms` : "n/a"}`,
      ].join("\n"),
    );
    return {
      sandbox_node: figure(nodeExit, 'node -e "process.exit(0)"'),
      sandbox_node_test: figure(nodeTest, "node --test on 3 files × 5 tests"),
    };
  } finally {
    await rm(workspace, { recursive: true, force: true });
  }
}

function describeLimit(sandbox: Sandbox): string {
  return process.getuid?.() === 0 ? `pids cgroup (running as root; ${sandbox.backend})` : `RLIMIT_NPROC (${sandbox.backend})`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log(JSON.stringify(await benchSandbox(), null, 2));
}

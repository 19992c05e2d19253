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
import { detectBwrapHost, which } from "../src/sandbox/host-layout.js";
import { sandboxHostsFile } from "../src/sandbox/sandbox-hosts.js";
import { prepareRun } from "../src/sandbox/prepare-run.js";
import { selectSandbox } from "../src/sandbox/select.js";
import { supervise } from "../src/sandbox/supervise.js";
import type { Sandbox } from "../src/sandbox/types.js";

const RUNS = 40;
const RATIO_GOAL = 1.1;
const START_GOAL_MS = 20;

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function timed(run: () => Promise<{ exitCode: number | null }>): Promise<number> {
  const t = performance.now();
  const r = await run();
  if (r.exitCode !== 0) throw new Error(`bench command failed with exit ${r.exitCode}`);
  return performance.now() - t;
}

/** Median wall time of `argv` bare and sandboxed, RUNS each, alternating. */
async function compare(sandbox: Sandbox, workspace: string, argv: string[]): Promise<{ bare: number; boxed: number }> {
  const bare: number[] = [];
  const boxed: number[] = [];
  const hostEnv = { PATH: "/usr/local/bin:/usr/bin:/bin", HOME: workspace };
  for (let i = 0; i < RUNS; i++) {
    bare.push(await timed(() => supervise({ command: argv[0], args: argv.slice(1), hostEnv, hostCwd: workspace, timeoutMs: 30_000, maxOutputBytes: 1 << 20 })));
    boxed.push(await timed(() => sandbox.run({ argv, workspace, timeoutMs: 30_000 })));
  }
  return { bare: median(bare), boxed: median(boxed) };
}

export async function benchSandbox(): Promise<string[]> {
  const chosen = await selectSandbox("bubblewrap");
  if (chosen.sandbox === null) return [`sandbox: skipped, no bubblewrap: ${chosen.reason}`];
  const sandbox = chosen.sandbox;
  const workspace = await mkdtemp(path.join(os.tmpdir(), "pg-bench-"));
  try {
    // A tiny test file, the kind of thing a small repository's `npm test` runs.
    await writeFile(path.join(workspace, "t.mjs"), 'import assert from "node:assert"; assert.equal(1 + 1, 2); console.log("ok");\n');
    const nodeExit = await compare(sandbox, workspace, [process.execPath, "-e", "process.exit(0)"]);
    const nodeTest = await compare(sandbox, workspace, [process.execPath, "t.mjs"]);
    // The floor: bwrap with the same mounts and namespaces, without prlimit and the pids cgroup.
    const bwrap = (await which("bwrap")) ?? "bwrap";
    const floorArgs = buildBubblewrapArgv(prepareRun({ argv: ["true"], workspace, timeoutMs: 1 }), { mounts: [], hasGit: false, hostsFile: await sandboxHostsFile(), prlimit: "/usr/bin/prlimit" });
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
      floor.push(await timed(() => supervise({ command: bwrap, args: floorArgv, hostEnv: { PATH: "/usr/bin:/bin" }, timeoutMs: 10_000, maxOutputBytes: 1 << 20 })));
    }
    const line = (name: string, m: { bare: number; boxed: number }) =>
      `${name}: bare ${m.bare.toFixed(1)} ms, bubblewrap ${m.boxed.toFixed(1)} ms, ratio ${(m.boxed / m.bare).toFixed(3)} (goal ≤ ${RATIO_GOAL})`;
    return [
      `runs: ${RUNS} each, interleaved, medians; process limit via ${describeLimit(sandbox)}; load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`,
      line('node -e "process.exit(0)"', nodeExit),
      line("node t.mjs (one assert)", nodeTest),
      `sandbox start (bubblewrap running \`true\`): ${median(start).toFixed(1)} ms (goal ≤ ${START_GOAL_MS} ms)`,
      `  of which bwrap alone (same namespaces and mounts, no prlimit, no cgroup): ${median(floor).toFixed(1)} ms`,
      `  as a non-root user would run it (prlimit, no cgroup): ${nonRoot.length ? `${median(nonRoot).toFixed(1)} ms` : "n/a"}`,
    ];
  } finally {
    await rm(workspace, { recursive: true, force: true });
  }
}

function describeLimit(sandbox: Sandbox): string {
  return process.getuid?.() === 0 ? `pids cgroup (running as root; ${sandbox.backend})` : `RLIMIT_NPROC (${sandbox.backend})`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  for (const l of await benchSandbox()) console.log(l);
}

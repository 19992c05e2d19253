/**
 * What the disk limit costs a run: milliseconds per run of a few workloads, in the session's
 * long-lived sandbox and in a sandbox per run, through the public Sandbox API only, so that the
 * same script measures whichever mechanism the checked-out src/ has (the statfs sampler before,
 * the per-command layer now). Run alone: `npx tsx bench/disk-limit.ts [runs]`; prints JSON.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { selectSandbox } from "../src/sandbox/select.js";
import type { Sandbox, SandboxRunRequest } from "../src/sandbox/types.js";
import { median } from "./figure.js";

const WORKLOADS: Record<string, string> = {
  // No write at all: the fixed cost per run.
  nothing: "true",
  // What a small test run leaves: a report and a few build outputs, rewritten each time.
  small_output: "mkdir -p out && for i in 1 2 3 4 5 6 7 8; do head -c 131072 /dev/zero > out/$i.o; done",
  // A larger output: 32 MB in 4 files, rewritten each time.
  large_output: "mkdir -p big && for i in 1 2 3 4; do head -c 8388608 /dev/zero > big/$i.bin; done",
};

async function perRun(sandbox: Sandbox, req: Omit<SandboxRunRequest, "argv">, script: string, runs: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    const r = await sandbox.run({ ...req, argv: ["/bin/sh", "-c", script] });
    if (r.exitCode !== 0) throw new Error(`bench workload failed (exit ${r.exitCode}): ${r.stderr.trim()}`);
    times.push(performance.now() - t);
  }
  return times;
}

async function main(): Promise<void> {
  const runs = Number(process.argv[2] ?? 20);
  const chosen = await selectSandbox("bubblewrap");
  if (chosen.sandbox === null) throw new Error(`no bubblewrap: ${chosen.reason}`);
  const sandbox = chosen.sandbox;
  const workspace = await mkdtemp(path.join(os.tmpdir(), "pg-bench-disk-"));
  const req = { workspace, timeoutMs: 60_000, limits: { diskBytes: 256 * 1024 * 1024 } };
  const out: Record<string, { long_lived_ms: number; one_shot_ms: number }> = {};
  try {
    for (const [name, script] of Object.entries(WORKLOADS)) {
      const session = sandbox.openSession!();
      // One run first so that neither form's figure holds the session's start.
      await perRun(session, req, script, 1);
      const longLived = await perRun(session, req, script, runs).finally(() => session.close());
      const oneShot = await perRun(sandbox, req, script, runs);
      out[name] = { long_lived_ms: round(median(longLived)), one_shot_ms: round(median(oneShot)) };
    }
  } finally {
    await rm(workspace, { recursive: true, force: true });
  }
  console.log(JSON.stringify({ runs, median_ms_per_run: out }, null, 2));
}

const round = (x: number): number => Math.round(x * 10) / 10;

await main();
process.exit(0);

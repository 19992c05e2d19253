import { cpSync, mkdtempSync, rmSync } from "node:fs";
import path from "node:path";
import type { RepoConfig } from "../config/repo-config.js";
import type { Sandbox, SandboxLimits, SandboxResult } from "../sandbox/types.js";
import { summarizeTestRun } from "../sandbox/test-summary.js";
import { limitsOf } from "../runs/sandbox-run.js";

export interface OwnTestRun {
  tests: "pass" | "fail" | "not_run";
  exitCode: number | null;
  durationMs: number;
  /** What failed (failing test names, last lines), for the report; empty when it passed. */
  summary: string;
}

/**
 * The runner's own test run on the final tree, independent of anything the agent ran or claimed.
 * It runs on a copy, so neither its setup step nor files the tests write can change what the checks
 * see, and in the sandbox, because the tree holds code the model wrote.
 */
export async function ownTestRun(sandbox: Sandbox, tree: string, config: RepoConfig, scratch: string): Promise<OwnTestRun> {
  if (!config.test) return { tests: "not_run", exitCode: null, durationMs: 0, summary: "" };
  const copy = mkdtempSync(path.join(scratch, "verify-"));
  try {
    cpSync(tree, copy, { recursive: true });
    const limits = limitsOf(config);
    let durationMs = 0;
    if (config.setup) {
      const setup = await shell(
        sandbox,
        copy,
        config.setup,
        config.timeouts.setup_seconds,
        limits,
        config.sandbox.network_for_setup,
        config.sandbox.allow_hosts,
      );
      durationMs += setup.durationMs;
      if (setup.exitCode !== 0) return { tests: "fail", exitCode: setup.exitCode, durationMs, summary: `setup failed: ${summary(setup)}` };
    }
    const res = await shell(sandbox, copy, config.test, config.timeouts.test_seconds, limits, false);
    durationMs += res.durationMs;
    const passed = res.exitCode === 0 && !res.timedOut;
    return { tests: passed ? "pass" : "fail", exitCode: res.exitCode, durationMs, summary: passed ? "" : summary(res) };
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

function shell(
  sandbox: Sandbox,
  workspace: string,
  command: string,
  seconds: number,
  limits: SandboxLimits,
  network: boolean,
  allowHosts: readonly string[] = [],
): Promise<SandboxResult> {
  return sandbox.run({ argv: ["/bin/sh", "-c", command], workspace, timeoutMs: seconds * 1000, limits, network, ...(network ? { allowHosts } : {}) });
}

function summary(res: SandboxResult): string {
  return res.timedOut ? "timed out" : summarizeTestRun(res.stdout, res.stderr, res.exitCode);
}

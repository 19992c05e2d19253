import { cpSync, mkdtempSync, rmSync } from "node:fs";
import path from "node:path";
import type { RepoConfig } from "../config/repo-config.js";
import type { Sandbox, SandboxLimits, SandboxResult, SessionExtras } from "../sandbox/types.js";
import type { ToolchainRecord } from "../session/types.js";
import { sessionExtras } from "../agent/session-sandbox.js";
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
 * see, and in the sandbox, because the tree holds code the model wrote. It runs on the toolchains the
 * session resolved (its `toolchains_resolved`), as the session's own runs did, so a verdict never
 * hangs on which node or go happens to come first on the host's PATH; none recorded, the sandbox's PATH.
 */
export async function ownTestRun(
  sandbox: Sandbox,
  tree: string,
  config: RepoConfig,
  scratch: string,
  toolchains: readonly ToolchainRecord[] | null,
): Promise<OwnTestRun> {
  if (!config.test) return { tests: "not_run", exitCode: null, durationMs: 0, summary: "" };
  const copy = mkdtempSync(path.join(scratch, "verify-"));
  // No cache directory: the copy runs its own setup, from nothing, like a fresh checkout would.
  const session = sessionExtras(toolchains, undefined);
  try {
    cpSync(tree, copy, { recursive: true });
    const limits = limitsOf(config);
    let durationMs = 0;
    if (config.setup) {
      const setup = await shell(
        sandbox,
        session,
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
    const res = await shell(sandbox, session, copy, config.test, config.timeouts.test_seconds, limits, false);
    durationMs += res.durationMs;
    const passed = res.exitCode === 0 && !res.timedOut;
    return { tests: passed ? "pass" : "fail", exitCode: res.exitCode, durationMs, summary: passed ? "" : summary(res) };
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

function shell(
  sandbox: Sandbox,
  session: SessionExtras,
  workspace: string,
  command: string,
  seconds: number,
  limits: SandboxLimits,
  network: boolean,
  allowHosts: readonly string[] = [],
): Promise<SandboxResult> {
  return sandbox.run({ argv: ["/bin/sh", "-c", command], workspace, timeoutMs: seconds * 1000, limits, network, session, ...(network ? { allowHosts } : {}) });
}

function summary(res: SandboxResult): string {
  return res.timedOut ? "timed out" : summarizeTestRun(res.stdout, res.stderr, res.exitCode);
}

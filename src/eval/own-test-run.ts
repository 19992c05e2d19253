import { cpSync, mkdtempSync, rmSync } from "node:fs";
import path from "node:path";
import type { RepoConfig } from "../config/repo-config.js";
import type { Sandbox, SandboxLimits, SandboxResult } from "../sandbox/types.js";
import { limitsOf } from "../tools/sandbox-run.js";

export interface OwnTestRun {
  tests: "pass" | "fail" | "not_run";
  exitCode: number | null;
  durationMs: number;
  /** Tail of the output, for the report when the run fails. */
  tail: string;
}

const TAIL_CHARS = 2000;

/**
 * The runner's own test run on the final tree, independent of anything the agent ran or claimed.
 * It runs on a copy, so neither its setup step nor files the tests write can change what the checks
 * see, and in the sandbox, because the tree holds code the model wrote.
 */
export async function ownTestRun(sandbox: Sandbox, tree: string, config: RepoConfig, scratch: string): Promise<OwnTestRun> {
  if (!config.test) return { tests: "not_run", exitCode: null, durationMs: 0, tail: "" };
  const copy = mkdtempSync(path.join(scratch, "verify-"));
  try {
    cpSync(tree, copy, { recursive: true });
    const limits = limitsOf(config);
    let durationMs = 0;
    if (config.setup) {
      const setup = await shell(sandbox, copy, config.setup, config.timeouts.setup_seconds, limits, config.sandbox.network_for_setup);
      durationMs += setup.durationMs;
      if (setup.exitCode !== 0) return { tests: "fail", exitCode: setup.exitCode, durationMs, tail: tail(setup, "setup failed") };
    }
    const res = await shell(sandbox, copy, config.test, config.timeouts.test_seconds, limits, false);
    durationMs += res.durationMs;
    const passed = res.exitCode === 0 && !res.timedOut;
    return { tests: passed ? "pass" : "fail", exitCode: res.exitCode, durationMs, tail: passed ? "" : tail(res, "") };
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
): Promise<SandboxResult> {
  return sandbox.run({ argv: ["/bin/sh", "-c", command], workspace, timeoutMs: seconds * 1000, limits, network });
}

function tail(res: SandboxResult, prefix: string): string {
  const text = `${prefix}${prefix ? "\n" : ""}${res.timedOut ? "(timed out)\n" : ""}${res.stdout}\n${res.stderr}`.trim();
  return text.length > TAIL_CHARS ? text.slice(-TAIL_CHARS) : text;
}

import { execFile } from "node:child_process";
import { join } from "node:path";
import { cliMain } from "./compiled-app.js";

export const ROOT = join(import.meta.dirname, "../..");

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the real CLI in its own process, without the caller's model key; never rejects on exit≠0.
 * It runs from the compiled tree (./compiled-app.ts), as `npx patchgate` runs dist/, not through tsx: a
 * test file may run it a dozen times. The tree carries its own node_modules, so a CLI started in
 * another directory (to read that directory's .env) resolves its packages all the same.
 */
export async function cli(args: string[], env: Record<string, string>, cwd = ROOT): Promise<CliResult> {
  const clean = { ...process.env };
  delete clean.OPENAI_API_KEY;
  delete clean.OPENAI_BASE_URL;
  return execCli(args, { ...clean, ...env }, { cwd });
}

/** The compiled CLI with exactly `env`, run to its end; never rejects on exit≠0. */
export async function execCli(args: string[], env: NodeJS.ProcessEnv, opts: { cwd?: string; timeoutMs?: number; maxBuffer?: number } = {}): Promise<CliResult> {
  const main = await cliMain();
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [main, ...args],
      { cwd: opts.cwd ?? ROOT, env, timeout: opts.timeoutMs ?? 120_000, ...(opts.maxBuffer ? { maxBuffer: opts.maxBuffer } : {}) },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

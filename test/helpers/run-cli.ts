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
  const main = await cliMain();
  return new Promise((resolve) => {
    execFile("node", [main, ...args], { cwd, env: { ...clean, ...env }, timeout: 120_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

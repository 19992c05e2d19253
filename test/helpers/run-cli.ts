import { execFile } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

export const ROOT = join(import.meta.dirname, "../..");
// By path, not by name: a CLI started in another directory (to read that directory's .env) must still find tsx.
const TSX = pathToFileURL(join(ROOT, "node_modules/tsx/dist/loader.mjs")).href;

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the real CLI in its own process, without the caller's model key; never rejects on exit≠0. */
export function cli(args: string[], env: Record<string, string>, cwd = ROOT): Promise<CliResult> {
  const clean = { ...process.env };
  delete clean.OPENAI_API_KEY;
  delete clean.OPENAI_BASE_URL;
  return new Promise((resolve) => {
    execFile("node", ["--import", TSX, join(ROOT, "src/cli/main.ts"), ...args], { cwd, env: { ...clean, ...env }, timeout: 120_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

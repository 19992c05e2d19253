import { execFile } from "node:child_process";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "../..");

/**
 * The real CLI in its own process, with Patchgate's variables of the test process removed and `env`
 * added; resolves with exit code and output (never rejects on exit ≠ 0).
 */
export function runCli(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  const base = { ...process.env };
  for (const k of Object.keys(base)) if (k.startsWith("PATCHGATE_") || k.startsWith("OPENAI_")) delete base[k];
  return new Promise((resolve) => {
    execFile(process.execPath, ["--import", "tsx", join(ROOT, "src/cli/main.ts"), ...args], { cwd: ROOT, env: { ...base, ...env }, timeout: 120_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { cliMain } from "./compiled-app.js";
import { BUGGY_ADD_REPO } from "./git-fixture.js";
import { execCli, type CliResult } from "./run-cli.js";

export const ROOT = join(import.meta.dirname, "../..");

// Patchgate's variables of the test process are removed, so only what a test gives reaches the CLI.
function cliEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base = { ...process.env };
  for (const k of Object.keys(base)) if (k.startsWith("PATCHGATE_") || k.startsWith("OPENAI_")) delete base[k];
  return { ...base, ...env };
}

/**
 * The real CLI in its own process with `env` added; resolves with exit code and output (never rejects on exit ≠ 0).
 * It runs from the compiled tree (./compiled-app.ts), as `npx patchgate` runs dist/: a test may run it dozens of times.
 */
export function runCli(args: string[], env: Record<string, string>, limits: { timeoutMs?: number; maxBuffer?: number } = {}): Promise<CliResult> {
  return execCli(args, cliEnv(env), limits);
}

/**
 * BUGGY_ADD_REPO's test script, holding while `.git/pg-hold` exists in the clone (the sandbox sees
 * .git read-only), after leaving a temporary file behind: where a CLI is killed in the middle of a tool run.
 */
export const HOLDING_TESTS = `if [ -e .git/pg-hold ]; then echo HOLDING; echo partial > .partial-output; exec sleep 600; fi
${BUGGY_ADD_REPO["test.sh"]}`;

/**
 * The CLI as a running process, to be killed: `printed(text)` resolves once its stdout has shown
 * `text`; `exited` with the signal that ended it, `code` with its exit code (null when killed).
 * Stderr is read as it comes (a pipe nobody reads would stall a CLI that writes much to it). Like
 * `runCli`, it runs from the compiled tree.
 */
export async function spawnCli(
  args: string[],
  env: Record<string, string>,
): Promise<{
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  printed: (text: string) => Promise<void>;
  exited: Promise<NodeJS.Signals | null>;
  code: Promise<number | null>;
}> {
  const main = await cliMain();
  const child = spawn(process.execPath, [main, ...args], { cwd: ROOT, env: cliEnv(env), stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
  const waiters: { text: string; resolve: () => void }[] = [];
  child.stdout!.on("data", (d: Buffer) => {
    out += d.toString();
    for (const w of waiters.splice(0))
      if (out.includes(w.text)) w.resolve();
      else waiters.push(w);
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once("exit", (_code, signal) => resolve(signal)));
  const code = new Promise<number | null>((resolve) => child.once("exit", (c) => resolve(c)));
  const printed = (text: string) => (out.includes(text) ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ text, resolve })));
  return { child, stdout: () => out, stderr: () => err, printed, exited, code };
}

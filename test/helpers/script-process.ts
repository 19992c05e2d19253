import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { compiledApp } from "./compiled-app.js";

const ROOT = join(import.meta.dirname, "../..");

export interface ScriptProcess {
  child: ChildProcess;
  output: () => string;
  /** Resolves once stdout has shown `text` (rejects if the process exits first). */
  printed(text: string): Promise<void>;
  /** SIGKILL, and resolves once the process is gone. */
  kill9(): Promise<void>;
}

/**
 * A TypeScript file of this repository run in its own process, `env` added to ours. It runs from the
 * compiled tree (./compiled-app.ts), not through tsx, whose loader costs more CPU than most of these
 * scripts' work.
 */
export async function spawnScript(file: string, env: Record<string, string>): Promise<ScriptProcess> {
  const child = spawn(process.execPath, [join(await compiledApp(), file.replace(/\.ts$/, ".js"))], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  let gone = false;
  const waiters: { text: string; resolve: () => void; reject: (e: Error) => void }[] = [];
  child.stdout!.on("data", (d: Buffer) => {
    out += d.toString();
    for (const w of waiters.splice(0))
      if (out.includes(w.text)) w.resolve();
      else waiters.push(w);
  });
  child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
  const exited = new Promise<void>((resolve) =>
    child.once("exit", (code, signal) => {
      gone = true;
      for (const w of waiters.splice(0)) w.reject(new Error(`${file} exited (${signal ?? code}) before printing ${JSON.stringify(w.text)}:\n${out}\n${err}`));
      resolve();
    }),
  );
  return {
    child,
    output: () => out,
    printed: (text) =>
      out.includes(text)
        ? Promise.resolve()
        : gone
          ? Promise.reject(new Error(`${file} is gone; never printed ${text}`))
          : new Promise((resolve, reject) => waiters.push({ text, resolve, reject })),
    kill9: async () => {
      if (!gone) child.kill("SIGKILL");
      await exited;
    },
  };
}

import { existsSync, readFileSync, readdirSync } from "node:fs";

const pids = () => readdirSync("/proc").filter((pid) => /^\d+$/.test(pid));

/**
 * The contents of `/workspace/<name>` as each sandboxed process sees it now. A run writes through a
 * layer of its own that reaches the host's workspace only when the run ends, so a run that holds is
 * seen from the host through its processes' root (/proc/<pid>/root, readable by root).
 */
export function sandboxFilesNamed(name: string): string[] {
  const seen: string[] = [];
  for (const pid of pids()) {
    try {
      seen.push(readFileSync(`/proc/${pid}/root/workspace/${name}`, "utf8"));
    } catch {
      // not a sandboxed process, gone already, or the file is not there yet
    }
  }
  return seen;
}

/**
 * Resolves once a sandboxed process sees `name` in its /workspace. There is no change event to wait
 * on across a mount namespace, so this checks every 50 ms, and rejects after `boundMs`, naming what
 * never appeared. Give `name` a value no other test's sandbox writes.
 */
export function sandboxFileAppears(name: string, boundMs = 60_000): Promise<void> {
  const seen = () =>
    pids().some((pid) => {
      try {
        return existsSync(`/proc/${pid}/root/workspace/${name}`);
      } catch {
        return false;
      }
    });
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const check = () => {
      if (seen()) return resolve();
      if (Date.now() - started > boundMs) return reject(new Error(`no sandboxed process saw /workspace/${name}`));
      setTimeout(check, 50);
    };
    check();
  });
}

import { existsSync, readdirSync } from "node:fs";

/**
 * Resolves once a sandboxed process sees `name` in its /workspace. A run writes through a layer of its
 * own that reaches the host's workspace only when the run ends, so a run that holds is seen from the
 * host through its processes' root (/proc/<pid>/root, readable by root). There is no change event to
 * wait on across a mount namespace, so this checks every 50 ms, and rejects after `boundMs`, naming
 * what never appeared. Give `name` a value no other test's sandbox writes.
 */
export function sandboxFileAppears(name: string, boundMs = 60_000): Promise<void> {
  const seen = () =>
    readdirSync("/proc").some((pid) => {
      if (!/^\d+$/.test(pid)) return false;
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

import { readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Removes the system temp dir's entries named `prefix…` and untouched for `maxAgeMs`, except `keep`:
 * builds a test helper keeps across runs, superseded by a newer one. The grace period leaves another
 * checkout's build, which may still be in use, alone.
 */
export function pruneTempEntries(prefix: string, keep: string, maxAgeMs: number): void {
  for (const name of readdirSync(tmpdir())) {
    const path = join(tmpdir(), name);
    if (!name.startsWith(prefix) || path === keep) continue;
    try {
      if (Date.now() - statSync(path).mtimeMs > maxAgeMs) rmSync(path, { recursive: true, force: true });
    } catch {
      // removed by another worker meanwhile
    }
  }
}

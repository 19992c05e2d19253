import { existsSync, watch } from "node:fs";
import { basename, dirname } from "node:path";

/**
 * Resolves once `file` exists: on the directory's change event, not by polling (the directory must
 * exist). Rejects after `boundMs`, naming what never appeared, so a hang fails with a reason.
 */
export function fileAppears(file: string, boundMs = 30_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const watcher = watch(dirname(file), (_event, name) => {
      if ((name === null || name === basename(file)) && existsSync(file)) done();
    });
    const timer = setTimeout(() => done(new Error(`never appeared: ${file}`)), boundMs);
    function done(err?: Error) {
      clearTimeout(timer);
      watcher.close();
      if (err) reject(err);
      else resolve();
    }
    // Created before the watch began.
    if (existsSync(file)) done();
  });
}

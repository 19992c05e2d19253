import { performance } from "node:perf_hooks";
import { openSetupCache, type SetupCacheContext } from "../depcache/index.js";
import type { Sandbox } from "../sandbox/types.js";
import type { SetupCacheRecord } from "../session/types.js";
import type { RunResult } from "./sandbox-run.js";

/**
 * The setup step with the cache around it: on the maintainer's tree (`network`), an entry with the
 * same key stands in for running `run` (its result says so on stdout); after a run that passed, the
 * outcome is stored. Elsewhere `run` runs as it is. The entry may link the setup's files only where the
 * sandbox says its runs never write into a workspace file (`writesByReplacing`).
 */
export async function withDependencyCache(
  ctx: SetupCacheContext & { sandbox?: Pick<Sandbox, "writesByReplacing"> | null },
  command: string,
  network: boolean,
  run: () => Promise<RunResult>,
): Promise<{ res: RunResult; dependencyCache?: SetupCacheRecord }> {
  const cacheCtx = { ...ctx, workspaceWritesReplace: ctx.sandbox?.writesByReplacing === true };
  const cache = network ? await openSetupCache(cacheCtx, command).catch(() => null) : null;
  if (cache === null) return { res: await run() };
  const started = performance.now();
  const restored = await cache.restore();
  if (restored) {
    const mb = ((restored.bytes ?? 0) / 1e6).toFixed(1);
    const stdout = `patchgate: restored from the dependency cache (${mb} MB: ${(restored.paths ?? []).join(", ")}) instead of running \`${command}\`\n`;
    const durationMs = Math.round(performance.now() - started);
    return {
      res: { exitCode: 0, signal: null, stdout, stderr: "", truncated: false, timedOut: false, durationMs, removedSpecial: [] },
      dependencyCache: restored,
    };
  }
  const res = await run();
  if (res.exitCode !== 0 || res.timedOut) return { res };
  return { res, dependencyCache: await cache.store() };
}

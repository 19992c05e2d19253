import { createProbot, ProbotOctokit } from "probot";
import { textSink } from "../github/app-log.js";
import { depsFromEnv } from "../github/env-deps.js";
import { patchgateOctokit } from "../github/octokit.js";
import { PRODUCTION_LIMITS } from "../github/rate-limits.js";
import { defaultSlots, startWorker } from "../github/scale-out.js";
import { stopOnSignals } from "../github/stop-on-signal.js";
import type { PostgresSessionStore } from "../store/pg-store.js";
import { parseCommandArgs } from "./cli-args.js";
import { help } from "./inspect-commands.js";
import { envCount, scaleOutUrl } from "./scale-out-env.js";
import { processOperatorEnv, type OperatorEnv } from "../config/operator-env.js";

export const WORKER_USAGE =
  "patchgate worker           (runs queued sessions: DATABASE_URL=postgres://…, APP_ID, PRIVATE_KEY; PATCHGATE_WORKER_SLOTS, PATCHGATE_LEASE_SECONDS)";

/**
 * `patchgate worker`: no HTTP server; it takes sessions from the PostgreSQL queue, at most
 * PATCHGATE_WORKER_SLOTS at once, each under a lease it renews while it runs. Runs until stopped:
 * on SIGTERM or SIGINT it takes no new session and lets the ones it runs settle; a session still
 * running when the grace ends is taken up by another worker once its lease runs out.
 */
export async function workerCommand(argv: string[], out: NodeJS.WritableStream, env: OperatorEnv = processOperatorEnv()): Promise<number> {
  const parsed = parseCommandArgs(argv, {} as const, WORKER_USAGE);
  if (parsed.help) return help(out, WORKER_USAGE);
  const url = scaleOutUrl("worker", env);
  const slots = envCount(env, "PATCHGATE_WORKER_SLOTS", defaultSlots());
  const leaseMs = envCount(env, "PATCHGATE_LEASE_SECONDS", 15) * 1000;
  const probot = createProbot({ overrides: { Octokit: patchgateOctokit(ProbotOctokit, PRODUCTION_LIMITS) } });
  const deps = await depsFromEnv(
    textSink((text) => out.write(text)),
    env,
  );
  const { queue } = await startWorker(probot, deps, deps.store as PostgresSessionStore, { url, slots, leaseMs });
  // The queue's close takes no new lane and waits for the running ones: here both steps are one.
  stopOnSignals({ refuse: async () => undefined, drain: () => queue.close(), log: (line) => deps.log(line) });
  return new Promise<number>(() => undefined);
}

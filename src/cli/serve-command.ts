import { ProbotOctokit, run } from "probot";
import { patchgateApp } from "../github/app.js";
import { pinoSink } from "../github/app-log.js";
import { depsFromEnv } from "../github/env-deps.js";
import { patchgateOctokit } from "../github/octokit.js";
import { PRODUCTION_LIMITS } from "../github/rate-limits.js";
import { useReceiverQueue } from "../github/scale-out.js";
import { stopOnSignals, withoutProbotSignalHandlers } from "../github/stop-on-signal.js";
import type { DurableQueue } from "../queue/pg/durable-queue.js";
import type { PostgresSessionStore } from "../store/pg-store.js";
import { parseCommandArgs } from "./cli-args.js";
import { help } from "./inspect-commands.js";
import { scaleOutUrl } from "./scale-out-env.js";
import { processOperatorEnv, type OperatorEnv } from "../config/operator-env.js";

export const SERVE_USAGE = "patchgate serve            (a receiver: DATABASE_URL=postgres://…, Probot's APP_ID, PRIVATE_KEY, WEBHOOK_SECRET, PORT)";

/**
 * `patchgate serve`: Probot's server as a receiver — it verifies each webhook, stores it in the
 * inbox, enqueues its job in PostgreSQL and answers; `patchgate worker`s run the jobs. Runs until
 * it is stopped: on SIGTERM or SIGINT it stops taking deliveries and stores what it has enqueued.
 */
export async function serveCommand(argv: string[], out: NodeJS.WritableStream, env: OperatorEnv = processOperatorEnv()): Promise<number> {
  const parsed = parseCommandArgs(argv, {} as const, SERVE_USAGE);
  if (parsed.help) return help(out, SERVE_USAGE);
  const url = scaleOutUrl("serve", env);
  let queue: DurableQueue | undefined;
  let log: (line: string) => void = (line) => out.write(`${line}\n`);
  const server = await withoutProbotSignalHandlers(() =>
    run(
      async (probot, options) => {
        const deps = await depsFromEnv(pinoSink(probot.log), env);
        log = (line) => deps.log(line);
        const receiver = await useReceiverQueue(deps, deps.store as PostgresSessionStore, url);
        queue = receiver.queue;
        await patchgateApp(receiver)(probot, options);
      },
      { Octokit: patchgateOctokit(ProbotOctokit, PRODUCTION_LIMITS) },
    ),
  );
  stopOnSignals({ refuse: () => server.stop(), drain: async () => queue?.close(), log: (line) => log(line) });
  return new Promise<number>(() => undefined);
}

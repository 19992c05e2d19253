import type { ApplicationFunction } from "probot";
import { depsFromEnv } from "./github/env-deps.js";
import { patchgateApp } from "./github/app.js";
import { announceStart } from "./github/announce-start.js";
import { pinoSink } from "./github/app-log.js";
import type { PatchgateDeps } from "./github/deps.js";
import { setupTracing } from "./trace/otel-setup.js";
import { resourceLimits } from "./agent/resource-limits.js";
import { processOperatorEnv } from "./config/operator-env.js";

// The operator's variables, read once (main.ts has applied `.env` and checked them) and passed down.
const env = processOperatorEnv();
// OpenTelemetry export only when OTEL_EXPORTER_OTLP_ENDPOINT is set; otherwise nothing is registered.
await setupTracing(env);
// A bad PATCHGATE_MAX_CLONES / PATCHGATE_MAX_SANDBOX_RUNS stops the app at boot, naming the variable.
resourceLimits(env);

let started: PatchgateDeps | undefined;

/** Probot app (started by ./main.ts): wires the handlers, nothing else. */
const app: ApplicationFunction = async (probot, options) => {
  started = await depsFromEnv(pinoSink(probot.log), env);
  announceStart(started, env);
  return patchgateApp(started)(probot, options);
};

/** What the stop on SIGTERM needs of the running app (./main.ts): its jobs and its log. */
export const runningApp = {
  jobsSettled: async (): Promise<void> => started?.queue.idle(),
  log: (line: string): void => (started ? started.log(line) : console.log(line)),
};

export default app;

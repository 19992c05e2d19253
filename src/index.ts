import type { ApplicationFunction } from "probot";
import { depsFromEnv, patchgateApp } from "./github/index.js";
import { setupTracing } from "./trace/otel-setup.js";

// OpenTelemetry export only when OTEL_EXPORTER_OTLP_ENDPOINT is set; otherwise nothing is registered.
setupTracing();

/** Probot app (started by ./main.ts): wires the handlers, nothing else. */
const app: ApplicationFunction = (probot, options) => patchgateApp(depsFromEnv((line) => probot.log.info(line)))(probot, options);

export default app;

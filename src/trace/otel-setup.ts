/**
 * Registers the OpenTelemetry SDK with an OTLP/HTTP exporter, for the entry (`src/index.ts`, the CLI)
 * to call once at startup. Does nothing unless OTEL_EXPORTER_OTLP_ENDPOINT (or the traces-specific
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set: tracing is opt-in, and without a registered provider
 * `emitSpans` stays a no-op. The SDK itself (./otel-provider.ts) is loaded only then.
 */
import type { SpanExporter } from "@opentelemetry/sdk-trace-base";
import type { OperatorEnv } from "../config/operator-env.js";
// Only a type: the SDK behind it loads when setupTracing finds an endpoint.
import type { TracingHandle } from "./otel-provider.js";

/** The traces URL as the OTLP spec derives it: the generic endpoint gets `/v1/traces` appended. */
export function tracesUrl(env: OperatorEnv): string | null {
  const specific = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (specific) return specific;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!base) return null;
  return `${base.replace(/\/+$/, "")}/v1/traces`;
}

/**
 * Registers a global tracer provider exporting to the configured endpoint and returns its handle,
 * or null (and registers nothing, loads nothing) when no endpoint is configured. `exporter`
 * replaces the OTLP exporter (tests); the endpoint variable still decides whether anything is registered.
 */
export async function setupTracing(env: OperatorEnv, exporter?: SpanExporter): Promise<TracingHandle | null> {
  const url = tracesUrl(env);
  if (!url) return null;
  const { registerTracing } = await import("./otel-provider.js");
  return registerTracing(url, env.OTEL_SERVICE_NAME?.trim() || "patchgate", exporter);
}

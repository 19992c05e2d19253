/**
 * Registers the OpenTelemetry SDK with an OTLP/HTTP exporter, for the entry (`src/index.ts`, the CLI)
 * to call once at startup. Does nothing unless OTEL_EXPORTER_OTLP_ENDPOINT (or the traces-specific
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set: tracing is opt-in, and without a registered provider
 * `emitSpans` stays a no-op.
 *
 * Versions: the SDK 2.x line (sdk-trace-base 2.12, exporter 0.223) is the last that supports Node 20;
 * it requires @opentelemetry/api < 1.10, hence api ~1.9.
 */

import { trace } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  type SpanExporter,
  type SpanProcessor,
} from "@opentelemetry/sdk-trace-base";

export interface TracingHandle {
  /** Flushes pending spans and stops exporting; call before the process exits. */
  shutdown(): Promise<void>;
}

/** The traces URL as the OTLP spec derives it: the generic endpoint gets `/v1/traces` appended. */
export function tracesUrl(env: NodeJS.ProcessEnv): string | null {
  const specific = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (specific) return specific;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!base) return null;
  return `${base.replace(/\/+$/, "")}/v1/traces`;
}

/**
 * Registers a global tracer provider exporting to the configured endpoint and returns its handle,
 * or null (and registers nothing) when no endpoint is configured. `exporter` replaces the OTLP
 * exporter (tests); the endpoint variable still decides whether anything is registered.
 */
export function setupTracing(
  env: NodeJS.ProcessEnv = process.env,
  exporter?: SpanExporter,
): TracingHandle | null {
  const url = tracesUrl(env);
  if (!url) return null;
  const processor: SpanProcessor = new BatchSpanProcessor(exporter ?? new OTLPTraceExporter({ url }));
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ "service.name": env.OTEL_SERVICE_NAME?.trim() || "patchgate" }),
    spanProcessors: [processor],
  });
  trace.setGlobalTracerProvider(provider);
  return {
    async shutdown() {
      await provider.shutdown();
      trace.disable();
    },
  };
}

/**
 * The OpenTelemetry SDK with an OTLP/HTTP exporter, registered as the global tracer provider.
 * Loaded by otel-setup.ts only when an endpoint is configured: the SDK and the exporter cost an
 * idle process about 7 MB it does not need otherwise.
 *
 * Versions: the SDK 2.x line (sdk-trace-base 2.12, exporter 0.223) requires @opentelemetry/api
 * < 1.10, hence api ~1.9.
 */
import { trace } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BasicTracerProvider, BatchSpanProcessor, type SpanExporter, type SpanProcessor } from "@opentelemetry/sdk-trace-base";

export interface TracingHandle {
  /** Flushes pending spans and stops exporting; call before the process exits. */
  shutdown(): Promise<void>;
}

export function registerTracing(url: string, serviceName: string, exporter?: SpanExporter): TracingHandle {
  const processor: SpanProcessor = new BatchSpanProcessor(exporter ?? new OTLPTraceExporter({ url }));
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ "service.name": serviceName }),
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

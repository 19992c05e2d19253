/**
 * OpenTelemetry spans derived from a session's events: session → step → LLM call / tool call.
 *
 * Goes through @opentelemetry/api only, so it costs nothing unless the process registered a tracer
 * provider. Registration (SDK + OTLP exporter) happens in the entry, through `setupTracing()` in
 * otel-setup.ts, and only when OTEL_EXPORTER_OTLP_ENDPOINT is set. Spans are rebuilt from the event
 * timestamps after the fact, so call this once per session, when it reaches a terminal phase:
 * calling it twice for the same events exports the spans twice.
 */

import { SpanStatusCode, context, trace, type Span, type Context } from "@opentelemetry/api";
import type { StoredEvent } from "../session/events.js";
import { redact } from "../safety/redact.js";

const TRACER_NAME = "patchgate";

const time = (at: string, minusMs = 0): Date => new Date(new Date(at).getTime() - minusMs);

interface OpenStep {
  span: Span;
  ctx: Context;
  end: Date;
}

export function emitSpans(sessionId: string, events: readonly StoredEvent[], secrets: readonly string[] = []): void {
  if (events.length === 0) return;
  const tracer = trace.getTracer(TRACER_NAME);
  const session = tracer.startSpan("patchgate.session", {
    startTime: time(events[0].at),
    attributes: { "patchgate.session.id": sessionId },
  });
  // Without a registered provider the span is a non-recording no-op: skip the walk entirely.
  if (!session.isRecording()) return;
  const sessionCtx = trace.setSpan(context.active(), session);
  let step: OpenStep | null = null;
  let stepNo = 0;
  let promptTokens = 0;
  let completionTokens = 0;
  let cost: number | null = 0;
  const closeStep = (): void => {
    step?.span.end(step.end);
    step = null;
  };

  for (const e of events) {
    const at = time(e.at);
    if (e.type === "session_created") session.setAttribute("gen_ai.request.model", e.model);
    if (e.type === "llm_called") {
      closeStep();
      stepNo += 1;
      const start = time(e.at, e.latencyMs);
      const span = tracer.startSpan("patchgate.step", { startTime: start, attributes: { "patchgate.step": stepNo } }, sessionCtx);
      step = { span, ctx: trace.setSpan(sessionCtx, span), end: at };
      const llm = tracer.startSpan(
        `chat ${e.model}`,
        {
          startTime: start,
          attributes: {
            "gen_ai.operation.name": "chat",
            "gen_ai.request.model": e.model,
            "gen_ai.usage.input_tokens": e.usage.promptTokens,
            "gen_ai.usage.output_tokens": e.usage.completionTokens,
            "patchgate.usage.estimated": e.usage.estimated,
            "patchgate.retries": e.retries,
            "patchgate.ok": e.ok,
            "patchgate.duration_ms": e.latencyMs,
            ...(e.costUsd === null ? {} : { "patchgate.cost_usd": e.costUsd }),
          },
        },
        step.ctx,
      );
      if (!e.ok) llm.setStatus({ code: SpanStatusCode.ERROR, message: redact(e.error ?? "LLM call failed", secrets) });
      llm.end(at);
      promptTokens += e.usage.promptTokens;
      completionTokens += e.usage.completionTokens;
      cost = cost === null || e.costUsd === null ? null : cost + e.costUsd;
    } else if (e.type === "tool_result") {
      const parent: Context = step ? step.ctx : sessionCtx;
      const span = tracer.startSpan(
        `tool ${e.tool}`,
        {
          startTime: time(e.at, e.durationMs),
          attributes: {
            "gen_ai.tool.name": e.tool,
            "gen_ai.tool.call.id": e.callId,
            "patchgate.tool.version": e.toolVersion,
            "patchgate.ok": e.result.ok,
            "patchgate.duration_ms": e.durationMs,
          },
        },
        parent,
      );
      if (!e.result.ok) span.setStatus({ code: SpanStatusCode.ERROR, message: redact(e.result.error.code, secrets) });
      span.end(at);
      if (step && at > step.end) step.end = at;
    } else {
      // Everything else (plan, approvals, tests, failures) is a point in time on the enclosing span.
      (step?.span ?? session).addEvent(e.type, { "patchgate.seq": e.seq }, at);
      if (step && at > step.end) step.end = at;
    }
    if (e.type === "session_failed") {
      session.setStatus({ code: SpanStatusCode.ERROR, message: redact(`${e.reason}: ${e.message}`, secrets) });
    }
  }
  closeStep();
  session.setAttributes({
    "gen_ai.usage.input_tokens": promptTokens,
    "gen_ai.usage.output_tokens": completionTokens,
    "patchgate.steps": stepNo,
    ...(cost === null ? {} : { "patchgate.cost_usd": cost }),
  });
  session.end(time(events[events.length - 1].at));
}

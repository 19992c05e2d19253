import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { SpanStatusCode, trace } from "@opentelemetry/api";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { emitSpans } from "../../src/trace/otel.js";
import { setupTracing, tracesUrl } from "../../src/trace/otel-setup.js";
import { SessionScript } from "./fixtures/session-script.js";

const ms = (t: [number, number]): number => t[0] * 1000 + Math.round(t[1] / 1e6);

function session(): SessionScript {
  const s = new SessionScript("sess-otel").executing();
  s.toolStep("read_file", { path: "a.ts" }, "x", { promptTokens: 1000, completionTokens: 50 }, 0.002);
  s.add(
    {
      type: "llm_called",
      model: "gpt-4o",
      usage: { promptTokens: 1500, completionTokens: 20, estimated: false },
      latencyMs: 700,
      retries: 0,
      costUsd: 0.003,
      ok: true,
    },
    { type: "assistant_message", content: null, toolCalls: [{ id: "c2", name: "edit_file", arguments: "{}" }] },
    {
      type: "tool_result",
      callId: "c2",
      tool: "edit_file",
      toolVersion: "2",
      input: {},
      result: { ok: false, error: { code: "edit_without_read", message: "read first" } },
      durationMs: 4,
    },
  );
  return s;
}

describe("emitSpans", () => {
  afterEach(() => trace.disable());

  it("is a no-op when no tracer provider is registered", () => {
    const exporter = new InMemorySpanExporter();
    new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }); // created, not registered
    emitSpans("sess-otel", session().events);
    expect(exporter.getFinishedSpans()).toEqual([]);
  });

  it("builds session → step → LLM call / tool call spans with attributes and event times", () => {
    const exporter = new InMemorySpanExporter();
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
    const s = session();
    emitSpans("sess-otel", s.events);

    const spans = exporter.getFinishedSpans();
    const byName = (n: string): ReadableSpan[] => spans.filter((sp) => sp.name === n);
    const parentOf = (sp: ReadableSpan): string | undefined => sp.parentSpanContext?.spanId;
    expect(spans.map((sp) => sp.name).sort()).toEqual(
      ["chat gpt-4o", "chat gpt-4o", "patchgate.session", "patchgate.step", "patchgate.step", "tool edit_file", "tool read_file"].sort(),
    );
    const [root] = byName("patchgate.session");
    const [step1, step2] = byName("patchgate.step").sort((a, b) => ms(a.startTime) - ms(b.startTime));
    const [chat1, chat2] = byName("chat gpt-4o").sort((a, b) => ms(a.startTime) - ms(b.startTime));
    const [read] = byName("tool read_file");
    const [edit] = byName("tool edit_file");

    expect(parentOf(root)).toBeUndefined();
    expect([step1, step2].map(parentOf)).toEqual([root.spanContext().spanId, root.spanContext().spanId]);
    expect([chat1, read].map(parentOf)).toEqual([step1.spanContext().spanId, step1.spanContext().spanId]);
    expect([chat2, edit].map(parentOf)).toEqual([step2.spanContext().spanId, step2.spanContext().spanId]);

    expect(root.attributes).toEqual({
      "patchgate.session.id": "sess-otel",
      "gen_ai.request.model": "gpt-4o",
      "gen_ai.usage.input_tokens": 2500,
      "gen_ai.usage.output_tokens": 70,
      "patchgate.steps": 2,
      "patchgate.cost_usd": 0.005,
    });
    expect(chat1.attributes).toEqual({
      "gen_ai.operation.name": "chat",
      "gen_ai.request.model": "gpt-4o",
      "gen_ai.usage.input_tokens": 1000,
      "gen_ai.usage.output_tokens": 50,
      "patchgate.usage.estimated": false,
      "patchgate.retries": 0,
      "patchgate.ok": true,
      "patchgate.duration_ms": 800,
      "patchgate.cost_usd": 0.002,
    });
    expect(edit.attributes["patchgate.ok"]).toBe(false);
    expect(edit.status).toEqual({ code: SpanStatusCode.ERROR, message: "edit_without_read" });

    // The LLM span ends when llm_called was recorded and lasts its latency; the tool span likewise.
    const llmEvent = s.events.find((e) => e.type === "llm_called")!;
    expect(ms(chat1.endTime)).toBe(Date.parse(llmEvent.at));
    expect(ms(chat1.endTime) - ms(chat1.startTime)).toBe(800);
    expect(ms(read.endTime) - ms(read.startTime)).toBe(12);
    expect(ms(root.startTime)).toBe(Date.parse(s.events[0].at));
    expect(ms(root.endTime)).toBe(Date.parse(s.events.at(-1)!.at));
    // Non-span events are recorded as span events on the session before the first step.
    expect(root.events.map((e) => e.name)).toEqual(["session_created", "workspace_prepared", "plan_submitted", "plan_approved"]);
  });
});

describe("setupTracing", () => {
  afterEach(() => trace.disable());

  it("registers nothing without an OTLP endpoint", async () => {
    expect(await setupTracing({})).toBeNull();
    expect(tracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318/" })).toBe("http://127.0.0.1:4318/v1/traces");
    expect(tracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://a", OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://b/t" })).toBe("http://b/t");
  });

  it("exports the spans over OTLP/HTTP to the configured endpoint", async () => {
    const bodies: { url: string; body: string }[] = [];
    const server = createServer((req: IncomingMessage, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString("utf8")));
      req.on("end", () => {
        bodies.push({ url: req.url ?? "", body });
        res.writeHead(200, { "content-type": "application/json" }).end("{}");
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const port = (server.address() as AddressInfo).port;
      const handle = await setupTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`, OTEL_SERVICE_NAME: "pg-test" });
      expect(handle).not.toBeNull();
      emitSpans("sess-otel", session().events);
      await handle!.shutdown();
      expect(bodies.map((b) => b.url)).toEqual(["/v1/traces"]);
      const payload = JSON.parse(bodies[0].body);
      const names = payload.resourceSpans[0].scopeSpans[0].spans.map((sp: { name: string }) => sp.name).sort();
      expect(names).toEqual(["chat gpt-4o", "chat gpt-4o", "patchgate.session", "patchgate.step", "patchgate.step", "tool edit_file", "tool read_file"]);
      expect(JSON.stringify(payload.resourceSpans[0].resource)).toContain("pg-test");
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});

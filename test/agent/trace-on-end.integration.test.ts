import { trace } from "@opentelemetry/api";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { ScriptedLLM } from "../fakes/scripted-llm.js";
import { BUGGY_ADD_REPO } from "../helpers/git-fixture.js";
import { SessionHarness } from "../helpers/session-harness.js";

describe("spans at the end of a session", () => {
  afterEach(() => trace.disable());

  test("a session that ends exports its spans exactly once, however many resumes it had", async () => {
    const exporter = new InMemorySpanExporter();
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
    const h = await SessionHarness.create(BUGGY_ADD_REPO);
    try {
      const llm = new ScriptedLLM([
        { toolCalls: [{ name: "read_file", arguments: { path: "README.md" } }] },
        { error: { status: 400, message: "bad request" } },
      ]);
      await h.resume(llm);
      expect(exporter.getFinishedSpans().filter((s) => s.name === "patchgate.session")).toHaveLength(1);
      await h.resume(llm); // already ended: nothing new
      const spans = exporter.getFinishedSpans();
      expect(spans.filter((s) => s.name === "patchgate.session")).toHaveLength(1);
      expect(spans.length).toBeGreaterThan(2);
    } finally {
      await h.dispose();
    }
  });
});

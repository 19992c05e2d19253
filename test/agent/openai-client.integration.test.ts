import { createOpenAIClient } from "../../src/agent/llm/openai-client.js";
import { LLMError } from "../../src/agent/llm/types.js";
import { closedPort } from "../helpers/closed-port.js";
import { startFakeOpenAI, type FakeOpenAIServer } from "../fakes/chat/server.js";

const tools = [{ name: "read_file", description: "Read a file", parameters: { type: "object", properties: { path: { type: "string" } } } }];
const messages = [{ role: "user" as const, content: "hello" }];

describe("OpenAI client against a local chat-completions server", () => {
  let server: FakeOpenAIServer | undefined;
  const waits: number[] = [];
  const sleep = async (ms: number) => {
    waits.push(ms);
  };
  afterEach(async () => {
    expect(server?.violations ?? []).toEqual([]);
    await server?.close();
    waits.length = 0;
  });

  test("sends the key, tools and messages; returns tool calls and provider usage", async () => {
    server = await startFakeOpenAI([{ toolCalls: [{ name: "read_file", arguments: { path: "a.txt" } }], usage: { promptTokens: 321, completionTokens: 7 } }]);
    const llm = createOpenAIClient({ apiKey: "sk-test-key", baseURL: server.baseURL, model: "m1", sleep });
    const r = await llm.complete({ messages, tools });
    expect(r.toolCalls).toEqual([{ id: "call_1", name: "read_file", arguments: '{"path":"a.txt"}' }]);
    expect(r.usage).toEqual({ promptTokens: 321, completionTokens: 7, estimated: false });
    expect(r.retries).toBe(0);
    expect(server.requests[0].authorization).toBe("Bearer sk-test-key");
    expect(server.requests[0].body.model).toBe("m1");
    expect(server.requests[0].body.tools?.map((t) => t.function.name)).toEqual(["read_file"]);
  });

  test("429 and 503 are retried (honouring retry-after), then the answer arrives", async () => {
    server = await startFakeOpenAI([{ error: { status: 429 } }, { error: { status: 503 } }, { content: "ok" }]);
    const llm = createOpenAIClient({ apiKey: "k", baseURL: server.baseURL, model: "m", sleep });
    const r = await llm.complete({ messages, tools: [] });
    expect(r.content).toBe("ok");
    expect(r.retries).toBe(2);
    expect(server.requests).toHaveLength(3);
    expect(waits[0]).toBe(0); // retry-after: 0 from the server wins over the backoff schedule
    expect(waits).toHaveLength(2);
  });

  test.each([400, 401])("%i is not retried and becomes a non-retryable LLMError", async (status) => {
    server = await startFakeOpenAI([{ error: { status } }, { content: "never served" }]);
    const llm = createOpenAIClient({ apiKey: "k", baseURL: server.baseURL, model: "m", sleep });
    const err = await llm.complete({ messages, tools: [] }).catch((e: unknown) => e);
    expect(LLMError.isInstance(err)).toBe(true);
    expect((err as LLMError).status).toBe(status);
    expect((err as LLMError).retryable).toBe(false);
    expect(server.requests).toHaveLength(1);
  });

  test("429 insufficient_quota is not retried: one call, and the error says why", async () => {
    server = await startFakeOpenAI([
      { error: { status: 429, code: "insufficient_quota", message: "You exceeded your current quota" } },
      { content: "never served" },
    ]);
    const llm = createOpenAIClient({ apiKey: "k", baseURL: server.baseURL, model: "m", sleep });
    const err = (await llm.complete({ messages, tools: [] }).catch((e: unknown) => e)) as LLMError;
    expect([err.status, err.retryable, err.code, server.requests.length, waits.length]).toEqual([429, false, "insufficient_quota", 1, 0]);
    expect(err.message).toMatch(/You exceeded your current quota.*insufficient_quota: not retried/);
  });

  test("gives up after maxRetries transient failures", async () => {
    server = await startFakeOpenAI([{ error: { status: 500 } }, { error: { status: 500 } }, { error: { status: 500 } }]);
    const llm = createOpenAIClient({ apiKey: "k", baseURL: server.baseURL, model: "m", sleep, retry: { maxRetries: 2, baseDelayMs: 10, maxDelayMs: 100 } });
    const err = (await llm.complete({ messages, tools: [] }).catch((e: unknown) => e)) as LLMError;
    expect(err.status).toBe(500);
    expect(err.retries).toBe(2);
    expect(server.requests).toHaveLength(3);
  });

  test("a refused connection is retried and reported with no status", async () => {
    const llm = createOpenAIClient({
      apiKey: "k",
      baseURL: "http://127.0.0.1:1/v1",
      model: "m",
      sleep,
      retry: { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 1 },
    });
    const err = (await llm.complete({ messages, tools: [] }).catch((e: unknown) => e)) as LLMError;
    expect(LLMError.isInstance(err)).toBe(true);
    expect(err.status).toBeNull();
    expect(err.retries).toBe(1);
  });

  test('a connection that fails names the URL and the system\'s cause, not only "Connection error."', async () => {
    const base = `http://127.0.0.1:${await closedPort()}/v1`;
    const llm = createOpenAIClient({ apiKey: "k", baseURL: base, model: "m", sleep, retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 } });
    const err = (await llm.complete({ messages, tools: [] }).catch((e: unknown) => e)) as LLMError;
    expect(err.message).toBe(`LLM request failed: cannot connect to ${base} (ECONNREFUSED)`);
  });
});

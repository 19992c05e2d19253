import { createOpenAIClient, type OpenAIClientOptions } from "../../src/agent/llm/openai-client.js";
import { keyedVault } from "../../src/agent/llm/reasoning-vault.js";
import { LLMError, type LLMRequest } from "../../src/agent/llm/types.js";
import type { Message } from "../../src/session/messages.js";
import { startFakeOpenAI, type FakeOpenAIServer } from "../fakes/chat/server.js";
import { type FakeStep } from "../fakes/chat/turns.js";
import { type ProviderName } from "../fakes/chat/providers.js";

/**
 * How the client copes with what real providers send: streams that stall or break off, errors in a
 * 200, answers cut at the output limit, reasoning that must go back, each provider's own shape.
 * Against the fake provider over HTTP, through the real OpenAI SDK.
 */
const tools = [{ name: "read_file", description: "Read a file", parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } }];
const task: Message[] = [{ role: "user", content: "fix it" }];
const sleep = async () => {};
const vault = keyedVault(Buffer.alloc(32, 7));

describe("the OpenAI client against providers' real behaviour", () => {
  let server: FakeOpenAIServer | undefined;
  afterEach(async () => {
    expect(server?.violations ?? []).toEqual([]);
    await server?.close();
    server = undefined;
  });

  async function client(steps: FakeStep[], provider: ProviderName = "strict", extra: Partial<OpenAIClientOptions> = {}) {
    server = await startFakeOpenAI(steps, { provider });
    return createOpenAIClient({ apiKey: "sk-test", baseURL: server.baseURL, model: "m", sleep, vault, ...extra });
  }

  test("asks for a stream with usage; the streamed tool call and the usage chunk are put together", async () => {
    const llm = await client([
      { content: "Reading it.", toolCalls: [{ name: "read_file", arguments: { path: "src/a.ts" } }], usage: { promptTokens: 321, completionTokens: 7 } },
    ]);
    const r = await llm.complete({ messages: task, tools });
    expect(server!.requests[0].body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect([r.content, r.toolCalls, r.usage, r.finishReason]).toEqual([
      "Reading it.",
      [{ id: "call_1", name: "read_file", arguments: '{"path":"src/a.ts"}' }],
      { promptTokens: 321, completionTokens: 7, estimated: false },
      "tool_calls",
    ]);
  });

  test("a stream that stalls is cut by the idle timeout and asked again; the half answer is never returned", async () => {
    // The stall is for ever, so the timeout's length only has to exceed a loaded machine's delay
    // before the retry's first chunk (250 ms did not, at load 12).
    const llm = await client([{ toolCalls: [{ name: "read_file", arguments: { path: "half.ts" } }], stallAfterChunks: 3 }, { content: "whole" }], "strict", {
      timeoutMs: 3_000,
    });
    const r = await llm.complete({ messages: task, tools });
    expect([r.content, r.toolCalls, r.retries]).toEqual(["whole", [], 1]);
    expect(server!.requests).toHaveLength(2);
  });

  test("the total cap ends a request however the chunks come; the error says why and is retryable", async () => {
    const llm = await client([{ content: "slow", stallAfterChunks: 1 }], "strict", {
      timeoutMs: 60_000,
      totalTimeoutMs: 250,
      retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 },
    });
    const err = (await llm.complete({ messages: task, tools }).catch((e: unknown) => e)) as LLMError;
    expect(LLMError.isInstance(err)).toBe(true);
    expect([err.retryable, err.message]).toEqual([true, "LLM request failed: no complete answer within 0.25 s"]);
  });

  test("a stream that breaks off without a finish is retried whole", async () => {
    const llm = await client([{ content: "part of it", cutAfterChunks: 2 }, { content: "all of it" }]);
    const r = await llm.complete({ messages: task, tools });
    expect([r.content, r.retries]).toEqual(["all of it", 1]);
  });

  test.each([true, false])("200 with an error body is a transient failure: retried and counted (stream %s)", async (stream) => {
    const llm = await client([{ errorBody: { message: "upstream overloaded", code: 502 } }, { content: "ok" }], "openrouter", { stream });
    const r = await llm.complete({ messages: task, tools });
    expect([r.content, r.retries]).toEqual(["ok", 1]);
  });

  test("200 with an error every time ends as an LLMError after the retries, not a TypeError", async () => {
    const llm = await client([{ errorBody: { message: "no" } }, { errorBody: { message: "no" } }], "openrouter", {
      retry: { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 1 },
    });
    const err = (await llm.complete({ messages: task, tools }).catch((e: unknown) => e)) as LLMError;
    expect([LLMError.isInstance(err), err.retries, err.message]).toEqual([true, 1, "LLM request failed: the provider answered 200 with an error: no"]);
  });

  test("a server that ignores `stream` and sends one JSON body is read as such", async () => {
    const llm = await client([{ content: "plain", ignoreStream: true }]);
    expect((await llm.complete({ messages: task, tools })).content).toBe("plain");
  });

  test("finish_reason length comes through, with the cut-off arguments as they were", async () => {
    const llm = await client([{ toolCalls: [{ name: "read_file", arguments: '{"path": "src/very' }], finishReason: "length" }]);
    const r = await llm.complete({ messages: task, tools });
    expect([r.finishReason, r.toolCalls[0].arguments]).toEqual(["length", '{"path": "src/very']);
  });

  test("max_tokens: the configured cap, the raised one when asked; OpenAI's own field name where it wants it", async () => {
    const llm = await client([{ content: "a" }, { content: "b" }], "openai", {
      maxTokens: 1000,
      maxTokensRaised: 4000,
      maxTokensField: "max_completion_tokens",
      reasoningEffort: "low",
      parallelToolCalls: false,
    });
    await llm.complete({ messages: task, tools });
    await llm.complete({ messages: task, tools, raiseMaxTokens: true });
    expect(server!.requests.map((r) => [r.body.max_completion_tokens, r.body.reasoning_effort, r.body.parallel_tool_calls])).toEqual([
      [1000, "low", false],
      [4000, "low", false],
    ]);
  });

  test("DeepSeek thinking: reasoning_content is sealed in the answer and sent back on the tool-call turn", async () => {
    const llm = await client(
      [{ toolCalls: [{ name: "read_file", arguments: { path: "a" } }], reasoning: "I should read a first." }, { content: "done" }],
      "deepseek",
    );
    const first = await llm.complete({ messages: task, tools });
    expect(first.reasoning).toMatch(/^rv1:/);
    expect(first.reasoning).not.toContain("read a first");
    const next: LLMRequest = {
      messages: [
        ...task,
        { role: "assistant", content: null, toolCalls: first.toolCalls, reasoning: first.reasoning },
        { role: "tool", toolCallId: first.toolCalls[0].id, content: "{}" },
      ],
      tools,
    };
    await llm.complete(next);
    expect((server!.requests[1].body.messages[1] as { reasoning_content: string }).reasoning_content).toBe("I should read a first.");
  });

  test("OpenRouter: streamed reasoning_details fragments become one block, sent back unchanged; keep-alive comments are skipped", async () => {
    const llm = await client(
      [{ toolCalls: [{ name: "read_file", arguments: { path: "a" } }], reasoning: "Look at a, then b." }, { content: "done" }],
      "openrouter",
    );
    const first = await llm.complete({ messages: task, tools });
    await llm.complete({
      messages: [
        ...task,
        { role: "assistant", content: null, toolCalls: first.toolCalls, reasoning: first.reasoning },
        { role: "tool", toolCallId: first.toolCalls[0].id, content: "{}" },
      ],
      tools,
    });
    const sent = server!.requests[1].body.messages[1] as { reasoning_details: unknown[] };
    expect(sent.reasoning_details).toEqual([
      { type: "reasoning.text", text: "Look at a, then b.", signature: "sig-fake", format: "anthropic-claude-v1", index: 0 },
    ]);
  });

  test("Azure OpenAI: the deployment path, api-version and api-key header; the leading content-filter chunk is skipped", async () => {
    const llm = await client([{ content: "hello from azure" }], "azure", { azure: { apiVersion: "2024-10-21" } });
    const r = await llm.complete({ messages: task, tools });
    expect(r.content).toBe("hello from azure");
    expect([server!.requests[0].url, server!.requests[0].apiKey]).toEqual(["/openai/deployments/m/chat/completions?api-version=2024-10-21", "sk-test"]);
  });

  test("Ollama: tool calls sent whole with finish_reason stop are still tool calls", async () => {
    const llm = await client(
      [
        {
          toolCalls: [
            { name: "read_file", arguments: { path: "a" } },
            { name: "read_file", arguments: { path: "b" } },
          ],
        },
      ],
      "ollama",
    );
    const r = await llm.complete({ messages: task, tools });
    expect([r.finishReason, r.toolCalls.map((c) => c.arguments)]).toEqual(["stop", ['{"path":"a"}', '{"path":"b"}']]);
  });

  test("history is written so that parsers and name patterns accept it: bad JSON arguments as {}, odd names cleaned", async () => {
    const llm = await client([{ content: "ok" }], "vllm");
    const calls = [
      { id: "c1", name: "read_file", arguments: '{"path": "a' },
      { id: "c2", name: "functions.read file", arguments: "[1]" },
    ];
    await llm.complete({
      messages: [
        ...task,
        { role: "assistant", content: null, toolCalls: calls },
        { role: "tool", toolCallId: "c1", content: "{}" },
        { role: "tool", toolCallId: "c2", content: "{}" },
      ],
      tools,
    });
    const sent = (server!.requests[0].body.messages[1] as { tool_calls: { function: { name: string; arguments: string } }[] }).tool_calls;
    expect(sent.map((c) => [c.function.name, c.function.arguments])).toEqual([
      ["read_file", "{}"],
      ["functions_read_file", "{}"],
    ]);
  });
});

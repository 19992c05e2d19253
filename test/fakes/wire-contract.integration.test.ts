import OpenAI from "openai";
import { alternationProblem, historyArgumentsProblem } from "./chat/provider-rules.js";
import { PROFILES } from "./chat/providers.js";
import { checkOpenAIContract } from "./chat/wire-contract.js";
import { startFakeOpenAI } from "./chat/server.js";

/**
 * The fake provider is only worth its tests if it refuses what real providers refuse. One case per
 * rule, each a request a client has really sent.
 */
const call = (id: string, args = "{}", name = "read_file") => ({ id, type: "function", function: { name, arguments: args } });
const tool = (id: string) => ({ role: "tool", tool_call_id: id, content: "{}" });
const body = (messages: unknown[], extra: Record<string, unknown> = {}) => ({ model: "m", messages, ...extra });
const sys = { role: "system", content: "rules" };
const user = { role: "user", content: "task" };
const rule = (b: unknown) => checkOpenAIContract(b)?.rule ?? null;

describe("OpenAI's wire rules", () => {
  test("a well-formed tool loop passes", () => {
    expect(checkOpenAIContract(body([sys, user, { role: "assistant", content: null, tool_calls: [call("a"), call("b")] }, tool("a"), tool("b")]))).toBeNull();
  });

  test("a call without its result is refused with OpenAI's message", () => {
    expect(checkOpenAIContract(body([sys, user, { role: "assistant", content: null, tool_calls: [call("a"), call("b")] }, tool("a"), user]))).toEqual({
      rule: "unanswered_tool_call",
      message:
        "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: b",
      param: "messages.[4].role",
    });
  });

  test("a tool message after a user message (not right after its call) is refused", () => {
    expect(rule(body([user, { role: "assistant", content: null, tool_calls: [call("a")] }, user, tool("a")]))).toBe("unanswered_tool_call");
  });

  test("a result without a call is refused", () => {
    expect(checkOpenAIContract(body([user, tool("x")]))?.message).toBe(
      "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
    );
  });

  test("duplicate call ids are refused, within a turn or across turns", () => {
    expect(rule(body([user, { role: "assistant", content: null, tool_calls: [call("a"), call("a")] }, tool("a"), tool("a")]))).toBe("duplicate_tool_call_id");
    const twice = [{ role: "assistant", content: null, tool_calls: [call("a")] }, tool("a")];
    expect(rule(body([user, ...twice, ...twice]))).toBe("duplicate_tool_call_id");
  });

  test("invalid function names, in tools and in history", () => {
    expect(rule(body([user], { tools: [{ type: "function", function: { name: "read file", parameters: { type: "object" } } }] }))).toBe(
      "invalid_function_name",
    );
    expect(rule(body([user, { role: "assistant", content: null, tool_calls: [call("a", "{}", "functions.read")] }, tool("a")]))).toBe("invalid_function_name");
  });

  test("arguments in history must be a string", () => {
    const bad = { id: "a", type: "function", function: { name: "read_file", arguments: { path: "x" } } };
    expect(checkOpenAIContract(body([user, { role: "assistant", content: null, tool_calls: [bad] }, tool("a")]))?.message).toBe(
      "Invalid type for 'messages[1].tool_calls[0].function.arguments': expected a string, but got an object instead.",
    );
  });

  test("a parameter schema must be an object schema; strict schemas must list every property as required", () => {
    expect(rule(body([user], { tools: [{ type: "function", function: { name: "f", parameters: { type: "string" } } }] }))).toBe("schema_not_object");
    const optional = { type: "object", properties: { path: { type: "string" }, max: { type: "number" } }, required: ["path"], additionalProperties: false };
    expect(checkOpenAIContract(body([user], { tools: [{ type: "function", function: { name: "f", parameters: optional, strict: true } }] }))?.message).toBe(
      "Invalid schema for function 'f': In context=(), 'required' is required to be supplied and to be an array including every key in properties. Missing 'max'.",
    );
    expect(rule(body([user], { tools: [{ type: "function", function: { name: "f", parameters: optional } }] }))).toBeNull();
  });

  test("fields OpenAI does not know are refused: on messages, and at the top level", () => {
    expect(rule(body([user, { role: "assistant", content: "hi", reasoning_content: "…" }]))).toBe("unknown_message_field");
    expect(rule(body([user], { thinking: { type: "enabled" } }))).toBe("unknown_argument");
    expect(checkOpenAIContract(body([user, { role: "assistant", content: "hi", reasoning_content: "…" }]), { extraMessageKeys: true })).toBeNull();
  });

  test("stream_options only with stream; tool_choice and parallel_tool_calls only with tools; a null user content", () => {
    expect(rule(body([user], { stream_options: { include_usage: true } }))).toBe("stream_options_without_stream");
    expect(rule(body([user], { tool_choice: "auto" }))).toBe("tool_choice_without_tools");
    expect(rule(body([user], { parallel_tool_calls: false }))).toBe("parallel_without_tools");
    expect(rule(body([{ role: "user", content: null }]))).toBe("content_type");
    expect(rule(body([user, { role: "assistant", content: null }]))).toBe("content_type");
  });
});

describe("rules of other providers", () => {
  test("alternation templates: two user messages in a row, or a system message after the first, are refused", () => {
    expect(alternationProblem([sys, user, user])?.message).toBe("Conversation roles must alternate user/assistant/user/assistant/...");
    expect(alternationProblem([sys, user, { role: "assistant", content: "x" }, sys])?.message).toBe("System message must be at the beginning.");
    expect(
      alternationProblem([sys, user, { role: "assistant", content: null, tool_calls: [call("a")] }, tool("a"), { role: "assistant", content: "x" }, user]),
    ).toBeNull();
  });

  test("vLLM parses history arguments: malformed JSON there is an error on every later request", () => {
    expect(historyArgumentsProblem([user, { role: "assistant", content: null, tool_calls: [call("a", '{"path": "x"')] }, tool("a")])?.rule).toBe(
      "history_arguments_json",
    );
    expect(
      PROFILES.vllm.check(body([user, { role: "assistant", content: null, tool_calls: [call("a", "{bad")] }, tool("a")]), { detailsSent: new Map() })?.status,
    ).toBe(500);
  });

  test("DeepSeek thinking mode: a tool-call turn without its reasoning_content is refused", () => {
    const turn = { role: "assistant", content: null, tool_calls: [call("a")] };
    const check = (m: unknown) => PROFILES.deepseek.check(body([user, m, tool("a")]), { detailsSent: new Map() })?.violation.rule ?? null;
    expect(check(turn)).toBe("reasoning_content_missing");
    expect(check({ ...turn, reasoning_content: "" })).toBeNull();
  });
});

describe("the fake server answers refusals in the provider's error shape", () => {
  test("OpenAI: 400 invalid_request_error, which the SDK surfaces as a BadRequestError; the violation is kept", async () => {
    const server = await startFakeOpenAI([{ content: "never served" }], { provider: "openai" });
    try {
      const sdk = new OpenAI({ apiKey: "k", baseURL: server.baseURL, maxRetries: 0 });
      const err = await sdk.chat.completions.create({ model: "m", messages: [{ role: "tool", tool_call_id: "x", content: "{}" }] }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OpenAI.BadRequestError);
      expect((err as InstanceType<typeof OpenAI.BadRequestError>).error).toEqual({
        message: "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
        type: "invalid_request_error",
        param: "messages.[0].role",
        code: null,
      });
      expect(server.violations.map((v) => v.rule)).toEqual(["orphan_tool_message"]);
      expect(server.remaining()).toBe(1);
    } finally {
      await server.close();
    }
  });

  test("vLLM: its own error object", async () => {
    const server = await startFakeOpenAI([], { provider: "vllm" });
    try {
      const r = await fetch(`${server.baseURL}/chat/completions`, {
        method: "POST",
        headers: { authorization: "Bearer k", "content-type": "application/json" },
        body: JSON.stringify(body([sys, user, user])),
      });
      expect([r.status, await r.json()]).toEqual([
        400,
        { object: "error", message: "Conversation roles must alternate user/assistant/user/assistant/...", type: "BadRequestError", param: null, code: 400 },
      ]);
    } finally {
      await server.close();
    }
  });
});

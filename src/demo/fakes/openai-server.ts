import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Message } from "../../session/messages.js";
import { ScriptedLLM, type ScriptStep } from "../../agent/llm/scripted.js";
import { LLMError } from "../../agent/llm/types.js";
import { readBody, sendJson } from "./http-util.js";

/** A recorded request: enough to assert what the client sent (auth header, model, messages, tools). */
export interface RecordedChatRequest {
  authorization: string | undefined;
  body: { model: string; messages: unknown[]; tools?: { function: { name: string } }[] };
}

export interface FakeOpenAIServer {
  /** Base URL to give the OpenAI SDK (ends in /v1). */
  baseURL: string;
  requests: RecordedChatRequest[];
  /** Turns not yet served. */
  remaining(): number;
  close(): Promise<void>;
}

/**
 * A real HTTP server on 127.0.0.1 speaking the chat-completions protocol, answering from a script.
 * A scripted `{ error: { status, code } }` turn becomes that HTTP status with OpenAI's error body
 * (`type` and `code`, e.g. `insufficient_quota`), and `retry-after: 0` on 429.
 */
export async function startFakeOpenAI(steps: ScriptStep[], model = "fake-model"): Promise<FakeOpenAIServer> {
  const script = new ScriptedLLM(steps, model);
  const requests: RecordedChatRequest[] = [];
  const server: Server = createServer((req, res) => {
    void (async () => {
      const raw = (await readBody(req)).toString("utf8");
      if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) return sendJson(res, 404, { error: { message: "not found" } });
      const body = JSON.parse(raw) as RecordedChatRequest["body"];
      requests.push({ authorization: req.headers.authorization, body });
      try {
        const answer = await script.complete({ messages: fromOpenAI(body.messages), tools: [] });
        const message = {
          role: "assistant",
          content: answer.content,
          ...(answer.toolCalls.length > 0
            ? { tool_calls: answer.toolCalls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.arguments } })) }
            : {}),
        };
        sendJson(res, 200, {
            id: `chatcmpl-${requests.length}`,
            object: "chat.completion",
            created: Math.floor(Date.now() / 1000),
            model,
            choices: [{ index: 0, message, finish_reason: answer.toolCalls.length > 0 ? "tool_calls" : "stop" }],
            usage: {
              prompt_tokens: answer.usage.promptTokens,
              completion_tokens: answer.usage.completionTokens,
              total_tokens: answer.usage.promptTokens + answer.usage.completionTokens,
            },
          });
      } catch (err) {
        const status = LLMError.isInstance(err) && err.status ? err.status : 500;
        const code = LLMError.isInstance(err) ? err.code : null;
        sendJson(res, status, { error: { message: (err as Error).message, type: code ?? "fake_error", code } }, status === 429 ? { "retry-after": "0" } : {});
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    remaining: () => script.remaining,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Turns the wire messages back into ours, so script functions see what a ScriptedLLM would. */
function fromOpenAI(messages: unknown[]): Message[] {
  return messages.map((m) => {
    const msg = m as { role: string; content: string | null; tool_call_id?: string; tool_calls?: { id: string; function: { name: string; arguments: string } }[] };
    if (msg.role === "assistant") {
      return {
        role: "assistant",
        content: msg.content,
        toolCalls: (msg.tool_calls ?? []).map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments })),
      };
    }
    if (msg.role === "tool") return { role: "tool", toolCallId: msg.tool_call_id ?? "", content: msg.content ?? "" };
    return { role: msg.role as "system" | "user", content: msg.content ?? "" };
  });
}

import OpenAI from "openai";
import type { ChatCompletionMessageParam, ChatCompletionTool } from "openai/resources/chat/completions";
import type { Message } from "../../session/messages.js";
import { estimateMessagesTokens, estimateTokens } from "../../trace/tokens.js";
import { DEFAULT_RETRY_POLICY, isNonTransientCode, isRetryableStatus, parseRetryAfter, retryDelayMs, type RetryPolicy } from "./retry-policy.js";
import { LLMError, type LLMClient, type LLMRequest, type LLMResponse, type ToolSpec } from "./types.js";

export interface OpenAIClientOptions {
  apiKey: string;
  baseURL?: string;
  model: string;
  timeoutMs?: number;
  retry?: RetryPolicy;
  /** Injected in tests so retries do not wait for real. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** Any OpenAI-compatible chat-completions server. The SDK's own retries are off: we count and log ours. */
export function createOpenAIClient(opts: OpenAIClientOptions): LLMClient {
  const sdk = new OpenAI({ apiKey: opts.apiKey, baseURL: opts.baseURL, maxRetries: 0, timeout: opts.timeoutMs ?? 120_000 });
  const policy = opts.retry ?? DEFAULT_RETRY_POLICY;
  const sleep = opts.sleep ?? abortableSleep;
  return {
    model: opts.model,
    async complete(req: LLMRequest): Promise<LLMResponse> {
      const started = Date.now();
      for (let attempt = 0; ; attempt++) {
        try {
          const completion = await sdk.chat.completions.create(
            {
              model: opts.model,
              messages: req.messages.map(toOpenAIMessage),
              ...(req.tools.length > 0 ? { tools: req.tools.map(toOpenAITool), tool_choice: "auto" as const } : {}),
            },
            { signal: req.signal },
          );
          return toResponse(completion, req, opts.model, Date.now() - started, attempt);
        } catch (err) {
          if (req.signal?.aborted) throw err;
          const status = err instanceof OpenAI.APIError ? (err.status ?? null) : null;
          const code = err instanceof OpenAI.APIError ? (err.code ?? err.type ?? null) : null;
          const final = isNonTransientCode(code);
          const retryable = isRetryableStatus(status) && isTransient(err) && !final;
          if (!retryable || attempt >= policy.maxRetries) {
            const why = final ? ` (${code}: not retried — waiting does not restore quota)` : "";
            throw new LLMError(`LLM request failed: ${(err as Error).message}${why}`, status, retryable, attempt, code);
          }
          const headers = err instanceof OpenAI.APIError ? headerRecord(err.headers) : {};
          await sleep(retryDelayMs(attempt, parseRetryAfter(headers), policy), req.signal);
        }
      }
    },
  };
}

function isTransient(err: unknown): boolean {
  // Programming errors (TypeError in our own mapping) must not be retried as if the network failed.
  return err instanceof OpenAI.APIError || (err instanceof Error && /timeout|timed out|ECONN|socket|network/i.test(err.message));
}

function headerRecord(h: unknown): Record<string, string | undefined> {
  if (h && typeof (h as Headers).get === "function") {
    const headers = h as Headers;
    return { "retry-after": headers.get("retry-after") ?? undefined, "retry-after-ms": headers.get("retry-after-ms") ?? undefined };
  }
  return (h as Record<string, string | undefined>) ?? {};
}

function toOpenAIMessage(m: Message): ChatCompletionMessageParam {
  switch (m.role) {
    case "assistant":
      return m.toolCalls.length > 0
        ? {
            role: "assistant",
            content: m.content,
            tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.arguments } })),
          }
        : { role: "assistant", content: m.content ?? "" };
    case "tool":
      return { role: "tool", tool_call_id: m.toolCallId, content: m.content };
    default:
      return { role: m.role, content: m.content };
  }
}

function toOpenAITool(t: ToolSpec): ChatCompletionTool {
  return { type: "function", function: { name: t.name, description: t.description, parameters: t.parameters } };
}

function toResponse(c: OpenAI.Chat.Completions.ChatCompletion, req: LLMRequest, model: string, latencyMs: number, retries: number): LLMResponse {
  const msg = c.choices[0]?.message;
  const toolCalls = (msg?.tool_calls ?? [])
    .filter((t) => t.type === "function")
    .map((t) => ({ id: t.id, name: t.function.name, arguments: t.function.arguments }));
  const content = msg?.content ?? null;
  const usage = c.usage
    ? { promptTokens: c.usage.prompt_tokens, completionTokens: c.usage.completion_tokens, estimated: false }
    : {
        promptTokens: estimateMessagesTokens(req.messages, req.tools),
        completionTokens: estimateTokens((content ?? "") + toolCalls.map((t) => t.name + t.arguments).join("")),
        estimated: true,
      };
  return { content, toolCalls, usage, model: c.model || model, latencyMs, retries };
}

export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

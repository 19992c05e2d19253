import OpenAI, { AzureOpenAI } from "openai";
import { estimatePromptTokens, estimateTextTokens, estimateToolsTokens } from "../context/prompt-size.js";
import { type CompletionParts, ProviderErrorBody, readCompletion, StreamAssembler } from "./completion-reader.js";
import { ephemeralVault, type ReasoningVault } from "./reasoning-vault.js";
import { DEFAULT_RETRY_POLICY, isNonTransientCode, isRetryableStatus, parseRetryAfter, retryDelayMs, type RetryPolicy } from "./retry-policy.js";
import { sseData } from "./sse.js";
import { unreachableMessage } from "./connection-cause.js";
import { StreamGuard, TransientLLMError } from "./stream-guard.js";
import { LLMError, type LLMClient, type LLMRequest, type LLMResponse } from "./types.js";
import { chatRequestBody, type WireSettings } from "./wire-request.js";

export interface OpenAIClientOptions {
  apiKey: string;
  baseURL?: string;
  model: string;
  /** `azure`: api-key header, `/deployments/<model>` path, `api-version` query (Azure OpenAI). */
  azure?: { apiVersion: string };
  /** Longest wait for the response to start and between two stream chunks. Default 60 s. */
  timeoutMs?: number;
  /** Cap on one whole request, however steadily it streams. Default 10 minutes. */
  totalTimeoutMs?: number;
  retry?: RetryPolicy;
  /** Default true: `stream: true` with usage. */
  stream?: boolean;
  maxTokens?: number;
  maxTokensRaised?: number;
  maxTokensField?: WireSettings["maxTokensField"];
  reasoningEffort?: string;
  parallelToolCalls?: boolean;
  strictTools?: boolean;
  /** Seals reasoning for the ledger; default: a key that lives as long as this process. */
  vault?: ReasoningVault;
  /** Injected in tests so retries do not wait for real. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** Any OpenAI-compatible chat-completions server. The SDK's own retries are off: we count and log ours. */
export function createOpenAIClient(opts: OpenAIClientOptions): LLMClient {
  const idleMs = opts.timeoutMs ?? 60_000;
  const totalMs = opts.totalTimeoutMs ?? 600_000;
  const common = { apiKey: opts.apiKey, baseURL: opts.baseURL, maxRetries: 0, timeout: idleMs };
  const sdk = opts.azure ? new AzureOpenAI({ ...common, apiVersion: opts.azure.apiVersion }) : new OpenAI(common);
  const policy = opts.retry ?? DEFAULT_RETRY_POLICY;
  const sleep = opts.sleep ?? abortableSleep;
  const vault = opts.vault ?? ephemeralVault();
  const wire: WireSettings = {
    model: opts.model,
    stream: opts.stream ?? true,
    maxTokens: opts.maxTokens,
    maxTokensRaised: opts.maxTokensRaised,
    maxTokensField: opts.maxTokensField ?? "max_tokens",
    reasoningEffort: opts.reasoningEffort,
    parallelToolCalls: opts.parallelToolCalls,
    strictTools: opts.strictTools ?? false,
    openReasoning: (sealed) => vault.open(sealed),
  };
  return {
    model: opts.model,
    async complete(req: LLMRequest): Promise<LLMResponse> {
      const started = Date.now();
      const body = chatRequestBody(req, wire);
      for (let attempt = 0; ; attempt++) {
        try {
          const parts = await attemptOnce(sdk, body, idleMs, totalMs, req.signal);
          return toResponse(parts, req, opts.model, vault, Date.now() - started, attempt);
        } catch (err) {
          if (req.signal?.aborted) throw err;
          const status = err instanceof OpenAI.APIError ? (err.status ?? null) : null;
          const code = errorCode(err);
          const final = isNonTransientCode(code);
          const retryable = isRetryableStatus(status) && isTransient(err) && !final;
          if (!retryable || attempt >= policy.maxRetries) {
            const why = final ? ` (${code}: not retried — waiting does not restore quota)` : "";
            throw new LLMError(`LLM request failed: ${failureText(err, opts.baseURL)}${why}`, status, retryable, attempt, code);
          }
          const headers = err instanceof OpenAI.APIError ? headerRecord(err.headers) : {};
          await sleep(retryDelayMs(attempt, parseRetryAfter(headers), policy), req.signal);
        }
      }
    },
  };
}

/**
 * One HTTP request. A streamed answer is only returned once it is complete ([DONE] or a finish
 * reason): a stream that stalls or breaks off is an error and is retried whole, so a partial answer
 * never becomes a message. A server that ignores `stream` and sends one JSON body is read as such.
 */
async function attemptOnce(sdk: OpenAI, body: Record<string, unknown>, idleMs: number, totalMs: number, signal?: AbortSignal): Promise<CompletionParts> {
  const guard = new StreamGuard(idleMs, totalMs, signal);
  try {
    const response = await sdk.chat.completions.create(body as never, { signal: guard.signal }).asResponse();
    guard.tick();
    if (!(response.headers.get("content-type") ?? "").includes("text/event-stream")) return readCompletion(await response.json());
    if (!response.body) throw new TransientLLMError("the stream has no body");
    const assembler = new StreamAssembler();
    for await (const data of sseData(response.body)) {
      guard.tick();
      pushChunk(assembler, data);
    }
    const parts = assembler.result();
    if (!parts.complete) throw new TransientLLMError("the stream ended before the answer was complete");
    return parts;
  } catch (err) {
    throw guard.fired ?? err;
  } finally {
    guard.stop();
  }
}

function pushChunk(assembler: StreamAssembler, data: string): void {
  try {
    assembler.push(data);
  } catch (err) {
    if (err instanceof SyntaxError) throw new TransientLLMError(`an unreadable stream chunk: ${data.slice(0, 120)}`);
    throw err;
  }
}

/** The SDK says only "Connection error."; the user needs the URL and the system's reason. */
function failureText(err: unknown, baseURL: string | undefined): string {
  const unreached = err instanceof OpenAI.APIConnectionError && !(err instanceof OpenAI.APIConnectionTimeoutError);
  return unreached ? unreachableMessage(baseURL ?? "https://api.openai.com/v1", err) : (err as Error).message;
}

function isTransient(err: unknown): boolean {
  // Programming errors (TypeError in our own mapping) must not be retried as if the network failed.
  if (err instanceof OpenAI.APIError || TransientLLMError.isInstance(err) || err instanceof ProviderErrorBody) return true;
  return err instanceof Error && /timeout|timed out|ECONN|socket|network|terminated|other side closed/i.test(err.message);
}

/** The provider's error code, from an HTTP error or from an error sent with status 200. */
function errorCode(err: unknown): string | null {
  if (err instanceof OpenAI.APIError) return err.code ?? err.type ?? null;
  if (err instanceof ProviderErrorBody) {
    const e = (err.body as { error?: { code?: unknown; type?: unknown } }).error;
    const code = e?.code ?? e?.type;
    return typeof code === "string" ? code : null;
  }
  return null;
}

function headerRecord(h: unknown): Record<string, string | undefined> {
  if (h && typeof (h as Headers).get === "function") {
    const headers = h as Headers;
    return { "retry-after": headers.get("retry-after") ?? undefined, "retry-after-ms": headers.get("retry-after-ms") ?? undefined };
  }
  return (h as Record<string, string | undefined>) ?? {};
}

function toResponse(p: CompletionParts, req: LLMRequest, model: string, vault: ReasoningVault, latencyMs: number, retries: number): LLMResponse {
  // Billing is the provider's count; only a provider that sends none gets a (generous) byte estimate, marked so.
  const usage = p.usage
    ? { ...p.usage, estimated: false }
    : {
        promptTokens: estimatePromptTokens(req.messages) + estimateToolsTokens(req.tools),
        completionTokens: estimateTextTokens((p.content ?? "") + p.toolCalls.map((t) => t.name + t.arguments).join("")),
        estimated: true,
      };
  // Reasoning is needed back only on tool-call turns (DeepSeek); elsewhere providers allow dropping it.
  const reasoning = p.reasoning && p.toolCalls.length > 0 ? vault.seal(p.reasoning) : undefined;
  return {
    content: p.content,
    toolCalls: p.toolCalls,
    finishReason: p.finishReason,
    ...(reasoning !== undefined && { reasoning }),
    usage,
    model: p.model || model,
    latencyMs,
    retries,
  };
}

function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
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

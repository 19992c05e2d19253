import type { IncomingHttpHeaders } from "node:http";
import { alternationProblem, deepseekReasoningProblem, historyArgumentsProblem, reasoningDetailsProblem } from "./provider-rules.js";
import { checkOpenAIContract, type WireViolation } from "./wire-contract.js";

/**
 * How each provider docs/configuration.md lists behaves, as far as Patchgate depends on it: what it refuses,
 * what shape its errors have, and how its answers and streams differ from OpenAI's. `strict`, the
 * default of every test, refuses everything any of them refuses.
 */
export type ProviderName = "strict" | "openai" | "azure" | "deepseek" | "openrouter" | "vllm" | "ollama" | "litellm";

type Json = Record<string, unknown>;

export interface ProfileState {
  /** OpenRouter: reasoning_details sent with each tool-call answer, by its first call id. */
  detailsSent: Map<string, string>;
}

export interface ProviderProfile {
  name: ProviderName;
  /** null = the request's path, query and auth are what this provider accepts; else a 404/401 text. */
  route(url: URL, headers: IncomingHttpHeaders): { status: number; message: string } | null;
  check(body: Json, state: ProfileState): { violation: WireViolation; status: number } | null;
  errorBody(message: string, status: number, param: string | null, code?: string | null): unknown;
  /** finish_reason of an answer with tool calls (Ollama says `stop`). */
  toolFinishReason: string;
  reasoning: "none" | "deepseek" | "openrouter";
  stream: {
    /** Arguments sent in pieces (OpenAI) or each call whole in one chunk. */
    fragmentArguments: boolean;
    /** Azure opens with a chunk without choices carrying prompt_filter_results. */
    filterChunkFirst: boolean;
    /** OpenRouter sends `: OPENROUTER PROCESSING` comments while it waits. */
    keepAliveComments: boolean;
  };
  /** The id of call `index` of an answer; `n` counts calls over the server's life. */
  callId(index: number, n: number): string;
}

const openaiError = (message: string, status: number, param: string | null, code: string | null = null) => ({
  error: { message, type: code ?? (status >= 500 ? "server_error" : "invalid_request_error"), param, code },
});
const vllmError = (message: string, status: number) => ({
  object: "error",
  message,
  type: status >= 500 ? "InternalServerError" : "BadRequestError",
  param: null,
  code: status,
});
const bearer = (headers: IncomingHttpHeaders) =>
  typeof headers.authorization === "string" && headers.authorization.startsWith("Bearer ") ? null : { status: 401, message: "You didn't provide an API key." };
const chatPath = (url: URL, headers: IncomingHttpHeaders) =>
  url.pathname.endsWith("/chat/completions") ? bearer(headers) : { status: 404, message: `Unknown path ${url.pathname}` };

function firstOf(...checks: (() => WireViolation | null)[]): WireViolation | null {
  for (const c of checks) {
    const v = c();
    if (v) return v;
  }
  return null;
}

const base: Omit<ProviderProfile, "name" | "check"> = {
  route: chatPath,
  errorBody: openaiError,
  toolFinishReason: "tool_calls",
  reasoning: "none",
  stream: { fragmentArguments: true, filterChunkFirst: false, keepAliveComments: false },
  callId: (_i, n) => `call_${n}`,
};

const messagesOf = (body: Json): Json[] => (Array.isArray(body.messages) ? (body.messages as Json[]) : []);
const status400 = (v: WireViolation | null) => (v ? { violation: v, status: 400 } : null);

export const PROFILES: Record<ProviderName, ProviderProfile> = {
  strict: {
    ...base,
    name: "strict",
    check: (body) => {
      const v = firstOf(
        () => checkOpenAIContract(body),
        () => alternationProblem(messagesOf(body)),
        () => historyArgumentsProblem(messagesOf(body)),
      );
      return status400(v);
    },
  },
  openai: { ...base, name: "openai", check: (body) => status400(checkOpenAIContract(body)) },
  azure: {
    ...base,
    name: "azure",
    route: (url, headers) => {
      if (!/^\/openai\/deployments\/[^/]+\/chat\/completions$/.test(url.pathname)) return { status: 404, message: "Resource not found" };
      if (!url.searchParams.get("api-version")) return { status: 404, message: "Resource not found: api-version is required" };
      return typeof headers["api-key"] === "string" ? null : { status: 401, message: "Access denied due to invalid subscription key or wrong API endpoint." };
    },
    check: (body) => status400(checkOpenAIContract(body)),
    stream: { ...base.stream, filterChunkFirst: true },
  },
  deepseek: {
    ...base,
    name: "deepseek",
    reasoning: "deepseek",
    check: (body) =>
      status400(
        firstOf(
          () => checkOpenAIContract(body, { extraMessageKeys: true, extraTopLevelKeys: true }),
          () => deepseekReasoningProblem(messagesOf(body)),
        ),
      ),
  },
  openrouter: {
    ...base,
    name: "openrouter",
    reasoning: "openrouter",
    check: (body, state) =>
      status400(
        firstOf(
          () => checkOpenAIContract(body, { extraMessageKeys: true, extraTopLevelKeys: true }),
          () => reasoningDetailsProblem(messagesOf(body), state.detailsSent),
        ),
      ),
    stream: { ...base.stream, keepAliveComments: true },
    callId: (_i, n) => `toolu_${String(n).padStart(6, "0")}`,
  },
  vllm: {
    ...base,
    name: "vllm",
    errorBody: vllmError,
    check: (body) => {
      const args = historyArgumentsProblem(messagesOf(body));
      if (args) return { violation: args, status: 500 };
      return status400(
        firstOf(
          () => checkOpenAIContract(body, { extraMessageKeys: true, extraTopLevelKeys: true }),
          () => alternationProblem(messagesOf(body)),
        ),
      );
    },
    callId: (_i, n) => `chatcmpl-tool-${n.toString(16).padStart(8, "0")}`,
  },
  ollama: {
    ...base,
    name: "ollama",
    check: (body) => status400(checkOpenAIContract(body, { extraMessageKeys: true, extraTopLevelKeys: true })),
    toolFinishReason: "stop",
    stream: { ...base.stream, fragmentArguments: false },
  },
  litellm: {
    ...base,
    name: "litellm",
    check: (body) => status400(checkOpenAIContract(body, { extraMessageKeys: true, extraTopLevelKeys: true })),
    // A proxy that numbers the calls of each answer from 0: the same ids come back every turn.
    callId: (i) => `call_${i}`,
  },
};

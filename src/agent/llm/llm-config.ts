import type { OperatorEnv } from "../../config/operator-env.js";
import type { OpenAIClientOptions } from "./openai-client.js";
import type { ReasoningVault } from "./reasoning-vault.js";
import { FatalError } from "../../errors/index.js";

/**
 * The model connection, from the environment: the same variables for `patchgate run` and the app
 * (docs/configuration.md). Every value is checked when read; a bad one is an error that names the
 * variable, never a silent default.
 */
export interface LLMConfig {
  apiKey: string | undefined;
  baseURL: string | undefined;
  model: string;
  /** `openai` and `azure` want `max_completion_tokens`; `azure` also its own URL and auth. */
  provider: "openai" | "azure" | "compatible";
  azureApiVersion: string;
  timeoutS: number;
  totalTimeoutS: number;
  retries: number;
  maxTokens: number | undefined;
  /** After an answer cut at max tokens, later requests may ask for up to this many (raised once). */
  maxTokensRaised: number | undefined;
  contextTokens: number | undefined;
  reasoningEffort: string | undefined;
  parallelToolCalls: boolean | undefined;
  strictTools: boolean;
  stream: boolean;
}

export class LLMConfigError extends FatalError {
  readonly kind = "invalid_llm_config";
}

export const DEFAULT_MODEL = "gpt-4.1-mini";
const EFFORTS = ["none", "minimal", "low", "medium", "high", "xhigh", "max"];

function positiveInt(env: OperatorEnv, name: keyof OperatorEnv): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === "") return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new LLMConfigError(`${name} must be a positive whole number, got "${raw}"`);
  return n;
}

function count(env: OperatorEnv, name: keyof OperatorEnv): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === "") return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new LLMConfigError(`${name} must be a whole number ≥ 0, got "${raw}"`);
  return n;
}

function flag(env: OperatorEnv, name: keyof OperatorEnv): boolean | undefined {
  const raw = env[name]?.toLowerCase();
  if (raw === undefined || raw === "") return undefined;
  if (["1", "true", "yes", "on"].includes(raw)) return true;
  if (["0", "false", "no", "off"].includes(raw)) return false;
  throw new LLMConfigError(`${name} must be true or false, got "${env[name]}"`);
}

function isHttpUrl(text: string): boolean {
  try {
    return /^https?:$/.test(new URL(text).protocol);
  } catch {
    return false;
  }
}

function providerOf(env: OperatorEnv, baseURL: string | undefined): LLMConfig["provider"] {
  const set = env.PATCHGATE_LLM_PROVIDER;
  if (set !== undefined && set !== "") {
    if (set === "openai" || set === "azure" || set === "compatible") return set;
    throw new LLMConfigError(`PATCHGATE_LLM_PROVIDER must be openai, azure or compatible, got "${set}"`);
  }
  if (baseURL === undefined) return "openai";
  const host = new URL(baseURL).hostname;
  if (host === "api.openai.com") return "openai";
  if (host.endsWith(".openai.azure.com") || host.endsWith(".cognitiveservices.azure.com")) return "azure";
  return "compatible";
}

export function llmConfigFromEnv(env: OperatorEnv, model = env.PATCHGATE_MODEL ?? DEFAULT_MODEL): LLMConfig {
  const baseURL = env.OPENAI_BASE_URL === "" ? undefined : env.OPENAI_BASE_URL;
  if (baseURL !== undefined && !isHttpUrl(baseURL)) throw new LLMConfigError(`OPENAI_BASE_URL is not an http(s) URL: "${baseURL}"`);
  const effort = env.PATCHGATE_LLM_REASONING_EFFORT;
  if (effort !== undefined && effort !== "" && !EFFORTS.includes(effort)) {
    throw new LLMConfigError(`PATCHGATE_LLM_REASONING_EFFORT must be one of ${EFFORTS.join(", ")}, got "${effort}"`);
  }
  const maxTokens = positiveInt(env, "PATCHGATE_LLM_MAX_TOKENS");
  const raised = positiveInt(env, "PATCHGATE_LLM_MAX_TOKENS_RAISED");
  if (raised !== undefined && (maxTokens === undefined || raised <= maxTokens)) {
    throw new LLMConfigError("PATCHGATE_LLM_MAX_TOKENS_RAISED must be larger than PATCHGATE_LLM_MAX_TOKENS (which must be set)");
  }
  return {
    apiKey: env.OPENAI_API_KEY || undefined,
    baseURL,
    model,
    provider: providerOf(env, baseURL),
    azureApiVersion: env.OPENAI_API_VERSION || "2024-10-21",
    timeoutS: positiveInt(env, "PATCHGATE_LLM_TIMEOUT_S") ?? 60,
    totalTimeoutS: positiveInt(env, "PATCHGATE_LLM_TOTAL_TIMEOUT_S") ?? 600,
    retries: count(env, "PATCHGATE_LLM_RETRIES") ?? 4,
    maxTokens,
    maxTokensRaised: raised,
    contextTokens: positiveInt(env, "PATCHGATE_LLM_CONTEXT_TOKENS"),
    reasoningEffort: effort || undefined,
    parallelToolCalls: flag(env, "PATCHGATE_LLM_PARALLEL_TOOL_CALLS"),
    strictTools: flag(env, "PATCHGATE_LLM_STRICT_TOOLS") ?? false,
    stream: flag(env, "PATCHGATE_LLM_STREAM") ?? true,
  };
}

/** The client options for a config; the key must have been checked by the caller. */
export function clientOptions(c: LLMConfig, vault: ReasoningVault): OpenAIClientOptions {
  return {
    apiKey: c.apiKey ?? "",
    baseURL: c.baseURL,
    model: c.model,
    ...(c.provider === "azure" && { azure: { apiVersion: c.azureApiVersion } }),
    timeoutMs: c.timeoutS * 1000,
    totalTimeoutMs: c.totalTimeoutS * 1000,
    retry: { maxRetries: c.retries, baseDelayMs: 500, maxDelayMs: 30_000 },
    stream: c.stream,
    maxTokens: c.maxTokens,
    maxTokensRaised: c.maxTokensRaised,
    maxTokensField: c.provider === "compatible" ? "max_tokens" : "max_completion_tokens",
    reasoningEffort: c.reasoningEffort,
    parallelToolCalls: c.parallelToolCalls,
    strictTools: c.strictTools,
    vault,
  };
}

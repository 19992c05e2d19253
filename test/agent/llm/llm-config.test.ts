import { compactionFor, DEFAULT_COMPACTION } from "../../../src/agent/context/compaction-thresholds.js";
import { clientOptions, llmConfigFromEnv } from "../../../src/agent/llm/llm-config.js";
import { ephemeralVault } from "../../../src/agent/llm/reasoning-vault.js";

describe("model connection settings from the environment", () => {
  test("defaults", () => {
    expect(llmConfigFromEnv({})).toMatchObject({
      model: "gpt-4.1-mini",
      provider: "openai",
      timeoutS: 60,
      totalTimeoutS: 600,
      retries: 4,
      strictTools: false,
      stream: true,
      maxTokens: undefined,
      contextTokens: undefined,
    });
  });

  test("every variable is read", () => {
    const c = llmConfigFromEnv({
      OPENAI_BASE_URL: "http://localhost:11434/v1",
      PATCHGATE_MODEL: "qwen3",
      PATCHGATE_LLM_TIMEOUT_S: "30",
      PATCHGATE_LLM_TOTAL_TIMEOUT_S: "900",
      PATCHGATE_LLM_RETRIES: "0",
      PATCHGATE_LLM_MAX_TOKENS: "1024",
      PATCHGATE_LLM_MAX_TOKENS_RAISED: "4096",
      PATCHGATE_LLM_CONTEXT_TOKENS: "8192",
      PATCHGATE_LLM_REASONING_EFFORT: "high",
      PATCHGATE_LLM_PARALLEL_TOOL_CALLS: "false",
      PATCHGATE_LLM_STRICT_TOOLS: "yes",
      PATCHGATE_LLM_STREAM: "0",
    });
    expect(c).toMatchObject({
      model: "qwen3",
      provider: "compatible",
      timeoutS: 30,
      totalTimeoutS: 900,
      retries: 0,
      maxTokens: 1024,
      maxTokensRaised: 4096,
      contextTokens: 8192,
      reasoningEffort: "high",
      parallelToolCalls: false,
      strictTools: true,
      stream: false,
    });
    expect(clientOptions(c, ephemeralVault())).toMatchObject({
      timeoutMs: 30_000,
      totalTimeoutMs: 900_000,
      retry: { maxRetries: 0 },
      maxTokensField: "max_tokens",
    });
  });

  test("the provider from the host: OpenAI, Azure, anything else", () => {
    expect(llmConfigFromEnv({ OPENAI_BASE_URL: "https://api.openai.com/v1" }).provider).toBe("openai");
    expect(llmConfigFromEnv({ OPENAI_BASE_URL: "https://acme.openai.azure.com/openai" }).provider).toBe("azure");
    expect(llmConfigFromEnv({ OPENAI_BASE_URL: "https://openrouter.ai/api/v1" }).provider).toBe("compatible");
    expect(llmConfigFromEnv({ OPENAI_BASE_URL: "http://127.0.0.1:9/openai", PATCHGATE_LLM_PROVIDER: "azure" }).provider).toBe("azure");
  });

  test.each([
    [{ PATCHGATE_LLM_TIMEOUT_S: "soon" }, 'PATCHGATE_LLM_TIMEOUT_S must be a positive whole number, got "soon"'],
    [{ PATCHGATE_LLM_RETRIES: "-1" }, 'PATCHGATE_LLM_RETRIES must be a whole number ≥ 0, got "-1"'],
    [{ PATCHGATE_LLM_STRICT_TOOLS: "maybe" }, 'PATCHGATE_LLM_STRICT_TOOLS must be true or false, got "maybe"'],
    [{ PATCHGATE_LLM_REASONING_EFFORT: "extreme" }, /^PATCHGATE_LLM_REASONING_EFFORT must be one of none, minimal, low/],
    [{ PATCHGATE_LLM_MAX_TOKENS_RAISED: "100" }, /PATCHGATE_LLM_MAX_TOKENS_RAISED must be larger than PATCHGATE_LLM_MAX_TOKENS/],
    [{ PATCHGATE_LLM_PROVIDER: "anthropic" }, 'PATCHGATE_LLM_PROVIDER must be openai, azure or compatible, got "anthropic"'],
    [{ OPENAI_BASE_URL: "localhost:8000" }, 'OPENAI_BASE_URL is not an http(s) URL: "localhost:8000"'],
  ])("a bad value names its variable: %o", (env, message) => {
    expect(() => llmConfigFromEnv(env)).toThrow(message);
  });

  test("compaction thresholds follow the context window and never exceed the default", () => {
    expect(compactionFor({})).toEqual(DEFAULT_COMPACTION);
    const small = compactionFor({ contextTokens: 8192, maxTokens: 1024 });
    const mid = compactionFor({ contextTokens: 32768 });
    expect(small.maxPromptTokens).toBeLessThan(mid.maxPromptTokens);
    expect(small.keepRecent).toBeLessThan(DEFAULT_COMPACTION.keepRecent);
    expect(compactionFor({ contextTokens: 1_000_000 })).toEqual(DEFAULT_COMPACTION);
  });
});

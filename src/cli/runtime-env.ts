import { compactionFor, type CompactionSettings } from "../agent/context/compaction-thresholds.js";
import { clientOptions, DEFAULT_MODEL, llmConfigFromEnv, LLMConfigError, type LLMConfig } from "../agent/llm/llm-config.js";
import { createOpenAIClient } from "../agent/llm/openai-client.js";
import { checkEndpoint, EndpointCheckError } from "../agent/llm/endpoint-check.js";
import { ephemeralVault, vaultFromEnv, type ReasoningVault } from "../agent/llm/reasoning-vault.js";
import type { LLMClient } from "../agent/llm/types.js";
import { processOperatorEnv, type OperatorEnv } from "../config/operator-env.js";
import { UsageError } from "./usage-error.js";

export function modelName(flag?: string, env: OperatorEnv = processOperatorEnv()): string {
  return flag ?? env.PATCHGATE_MODEL ?? DEFAULT_MODEL;
}

/** The model connection's settings (PATCHGATE_LLM_*); a bad value is a usage error naming the variable. */
function llmConfig(model: string, env: OperatorEnv): LLMConfig {
  try {
    return llmConfigFromEnv(env, model);
  } catch (e) {
    if (LLMConfigError.isInstance(e)) throw new UsageError(e.message);
    throw e;
  }
}

/**
 * The model behind every real run. Without a key there is nothing to run: say so and stop.
 * `dataDir`: where the reasoning key lives, so a session resumed in a new process can still send
 * its provider's reasoning back (without it the key lasts as long as the process).
 */
export function llmFromEnv(
  model: string,
  env: OperatorEnv = processOperatorEnv(),
  dataDir?: string,
): { llm: LLMClient; compaction: CompactionSettings; config: LLMConfig } {
  const config = llmConfig(model, env);
  if (!config.apiKey) {
    throw new UsageError("OPENAI_API_KEY is not set. Set it (and OPENAI_BASE_URL for any OpenAI-compatible server) to run a session.");
  }
  const vault: ReasoningVault = dataDir === undefined ? ephemeralVault() : vaultFromEnv(env, dataDir);
  return { llm: createOpenAIClient(clientOptions(config, vault)), compaction: compactionFor(config), config };
}

/** The endpoint answers and serves the model, asked before a session exists; else one line, exit 1. */
export async function checkModelEndpoint(config: LLMConfig): Promise<void> {
  try {
    await checkEndpoint(config);
  } catch (e) {
    if (EndpointCheckError.isInstance(e)) throw new UsageError(e.message, 1);
    throw e;
  }
}

import { homedir } from "node:os";
import { join } from "node:path";
import { createOpenAIClient } from "../agent/llm/openai-client.js";
import type { LLMClient } from "../agent/llm/types.js";

/** A problem the user can fix (missing key, bad flag, broken config): printed plainly, no stack trace. */
export class UsageError extends Error {
  readonly name = "UsageError";
  constructor(
    message: string,
    readonly exitCode = 2,
  ) {
    super(message);
  }
}

export const DEFAULT_MODEL = "gpt-4.1-mini";

export function dataDir(flag?: string): string {
  return flag ?? process.env.PATCHGATE_DATA_DIR ?? join(homedir(), ".patchgate");
}

export function modelName(flag?: string): string {
  return flag ?? process.env.PATCHGATE_MODEL ?? DEFAULT_MODEL;
}

/** The model behind every real run. Without a key there is nothing to run: say so and stop. */
export function llmFromEnv(model: string): LLMClient {
  const apiKey = process.env.OPENAI_API_KEY;
  if (!apiKey) {
    throw new UsageError(
      "OPENAI_API_KEY is not set. Set it (and OPENAI_BASE_URL for any OpenAI-compatible server) to run a session.",
    );
  }
  return createOpenAIClient({ apiKey, baseURL: process.env.OPENAI_BASE_URL, model });
}

export * from "./types.js";
export { createOpenAIClient, type OpenAIClientOptions } from "./openai-client.js";
export { ScriptedLLM, type ScriptStep, type ScriptTurn } from "./scripted.js";
export * from "./retry-policy.js";

import { ALL_TOOLS, toolSpecs } from "../../tools/registry.js";
import { estimatePromptTokens, estimateToolsTokens } from "./prompt-size.js";
import { systemPrompt } from "./system-prompt.js";

export interface CompactionSettings {
  maxPromptTokens: number;
  maxTurns: number;
  keepRecent: number;
}

/** Without a known context window: the thresholds the context benchmark was measured with. */
export const DEFAULT_COMPACTION: CompactionSettings = { maxPromptTokens: 24_000, maxTurns: 60, keepRecent: 12 };

/** Output tokens kept free when no max_tokens is configured. */
const ANSWER_RESERVE = 4096;

/**
 * Thresholds for a model's context window (PATCHGATE_LLM_CONTEXT_TOKENS). The trigger counts the
 * conversation and the runtime block; the system prompt, the tool schemas and the answer also need
 * room (about 2.5k tokens for the first two, 4k kept for the answer unless max_tokens says). Compaction
 * starts at 60% of what is left, so the steps until the next check still fit, and never later than the
 * default: an 8k window compacts near 1k tokens, a 32k one near 16k. Fewer recent messages are kept
 * in a small window, since they must fit as well.
 */
export function compactionFor(window: { contextTokens?: number; maxTokens?: number }): CompactionSettings {
  if (window.contextTokens === undefined) return DEFAULT_COMPACTION;
  const fixed = estimatePromptTokens([{ role: "system", content: systemPrompt() }]) + estimateToolsTokens(toolSpecs(ALL_TOOLS));
  const room = window.contextTokens - fixed - (window.maxTokens ?? ANSWER_RESERVE);
  const maxPromptTokens = Math.max(512, Math.min(DEFAULT_COMPACTION.maxPromptTokens, Math.floor(room * 0.6)));
  // What a cut keeps must fit too: a tool result may be 8 KB (about 2k tokens) in the prompt.
  const keepRecent = Math.max(4, Math.min(DEFAULT_COMPACTION.keepRecent, 2 * Math.floor(maxPromptTokens / 3000)));
  return { ...DEFAULT_COMPACTION, maxPromptTokens, keepRecent };
}

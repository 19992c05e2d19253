/**
 * Token counts from a real BPE tokenizer (o200k_base, the encoding of GPT-4o, GPT-4.1, GPT-5 and the
 * o-series). Used for the context budget and when a provider returns no usage. The ranks ship inside
 * js-tiktoken, so counting works offline.
 */

import { Tiktoken } from "js-tiktoken/lite";
import o200kBase from "js-tiktoken/ranks/o200k_base";
import type { ToolSpec } from "../../tools/tool-spec.js";
import type { Message } from "../../session/messages.js";

let encoder: Tiktoken | null = null;

/** Built on first use: parsing the ranks takes ~0.5 s, which a process that never counts should not pay. */
function getEncoder(): Tiktoken {
  encoder ??= new Tiktoken(o200kBase);
  return encoder;
}

// The same tool outputs and file contents are counted again at every step; counting is the
// expensive part of building a context, so long strings are memoised (bounded, cleared when full).
const CACHE_MIN_CHARS = 512;
const CACHE_MAX_ENTRIES = 4096;
const cache = new Map<string, number>();

export function estimateTokens(text: string): number {
  if (text.length === 0) return 0;
  if (text.length >= CACHE_MIN_CHARS) {
    const hit = cache.get(text);
    if (hit !== undefined) return hit;
  }
  // No special tokens: untrusted text containing "<|endoftext|>" is counted as the plain text it is.
  const n = getEncoder().encode(text, [], []).length;
  if (text.length >= CACHE_MIN_CHARS) {
    if (cache.size >= CACHE_MAX_ENTRIES) cache.clear();
    cache.set(text, n);
  }
  return n;
}

/**
 * OpenAI's chat framing: every message costs a few tokens beyond its text (role, separators) and
 * the reply is primed with a few more. The numbers follow OpenAI's published counting recipe; the
 * tool-definition cost is an approximation (the provider renders the schemas in its own syntax).
 */
const PER_MESSAGE = 3;
const PER_TOOL_CALL = 3;
const REPLY_PRIMING = 3;
const TOOLS_FRAMING = 12;

export function estimateMessagesTokens(messages: readonly Message[], tools: readonly ToolSpec[] = []): number {
  let total = REPLY_PRIMING;
  for (const m of messages) {
    total += PER_MESSAGE + estimateTokens(m.role);
    if (m.content) total += estimateTokens(m.content);
    if (m.role === "assistant") {
      for (const call of m.toolCalls) {
        total += PER_TOOL_CALL + estimateTokens(call.name) + estimateTokens(call.arguments);
      }
    }
  }
  if (tools.length > 0) {
    total += TOOLS_FRAMING;
    for (const t of tools) {
      total += estimateTokens(t.name) + estimateTokens(t.description) + estimateTokens(JSON.stringify(t.parameters));
    }
  }
  return total;
}

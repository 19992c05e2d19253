import type { SessionEvent } from "../session/events.js";
import { recordedModelCalls } from "./replay/recording.js";
import type { ScriptStepInput } from "./script-schema.js";

/**
 * A session's model replies as a case script: every answer of the agent's model calls, in order, with
 * the usage its provider reported, read as `patchgate replay` reads them (replay/recording.ts). A
 * session recorded against a real endpoint (the live suite, `patchgate run`) can so be edited into a
 * case and run through `patchgate eval --cases`. Arguments that were not JSON stay raw text, so the
 * script sends them exactly as they came. Failed calls and compaction's summaries are left out: a
 * case scripts errors by HTTP status, and CaseScriptLLM answers summaries itself.
 */
export function scriptFromEvents(events: readonly SessionEvent[]): ScriptStepInput[] {
  return recordedModelCalls(events).turns.flatMap((t): ScriptStepInput[] => {
    if (t.kind !== "answer") return [];
    const calls = t.toolCalls.map((c) => ({ tool: c.name, args: argsOf(c.arguments) }));
    return [
      {
        ...(t.content !== null && t.content !== "" && { say: t.content }),
        ...(calls.length > 0 && { calls }),
        usage: { prompt_tokens: t.usage.promptTokens, completion_tokens: t.usage.completionTokens },
        ...(t.finishReason === "length" && { cut_at_limit: true }),
        repeat: 1,
      },
    ];
  });
}

function argsOf(text: string): Record<string, unknown> | string {
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed !== null && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : text;
  } catch {
    return text;
  }
}

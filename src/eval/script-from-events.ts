import type { SessionEvent } from "../session/events.js";
import type { ScriptStepInput } from "./script-schema.js";

/**
 * A session's model replies as a case script: every assistant_message, in order, with the usage its
 * provider reported. A session recorded against a real endpoint (the live suite, `patchgate run`)
 * can so be replayed offline, through `patchgate eval --cases`, with the same decisions.
 * Arguments that were not JSON stay raw text, so the replay sends them exactly as they came.
 * Compaction's summaries are not replies of the agent: CaseScriptLLM answers those itself.
 */
export function scriptFromEvents(events: readonly SessionEvent[]): ScriptStepInput[] {
  const steps: ScriptStepInput[] = [];
  let usage: ScriptStepInput["usage"];
  let cut = false;
  for (const e of events) {
    if (e.type === "llm_called") {
      usage = e.ok ? { prompt_tokens: e.usage.promptTokens, completion_tokens: e.usage.completionTokens } : undefined;
      cut = e.ok && e.finishReason === "length";
    }
    if (e.type !== "assistant_message") continue;
    const calls = e.toolCalls.map((c) => ({ tool: c.name, args: argsOf(c.arguments) }));
    steps.push({
      ...(e.content !== null && e.content !== "" && { say: e.content }),
      ...(calls.length > 0 && { calls }),
      ...(usage && { usage }),
      ...(cut && { cut_at_limit: true }),
      repeat: 1,
    });
    usage = undefined;
    cut = false;
  }
  return steps;
}

function argsOf(text: string): Record<string, unknown> | string {
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed !== null && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : text;
  } catch {
    return text;
  }
}

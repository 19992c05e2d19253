import type { ScriptAnswer } from "../../../src/eval/script-schema.js";
import type { FakeTurn } from "./turns.js";

/** An eval case's script as the fake provider's turns, reporting `usage` for every answer. */
export function scriptAnswerTurns(answers: readonly ScriptAnswer[], usage = { promptTokens: 1000, completionTokens: 50 }): FakeTurn[] {
  return answers.map((a) =>
    a.kind === "error" ? { error: { status: a.status, message: "scripted error" } } : { content: a.content, toolCalls: a.calls, usage: a.usage ?? usage },
  );
}

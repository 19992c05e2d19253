import type { ToolCall } from "../session/messages.js";
import type { Phase, ToolError } from "../session/types.js";

/**
 * A model turn may hold several calls, run in order. Once one of them ends the phase the turn started
 * in (finish accepted → publishing, plan submitted → waiting), the rest must not run: a write after an
 * accepted finish would change the tree the tests passed on, after the gate looked at it.
 * And finish cannot be judged while writes of the same turn wait for a human: their outcome decides
 * which tree would be pushed.
 */
export function turnRefusal(phase: Phase, call: ToolCall, writesWaiting: boolean): ToolError | null {
  if (phase !== "planning" && phase !== "executing") {
    return {
      code: "turn_ended",
      message: `Not run: an earlier call in this turn moved the session to ${phase}. Call ${call.name} again when the session continues, if it is still needed.`,
    };
  }
  if (call.name === "finish" && writesWaiting) {
    return {
      code: "finish_blocked",
      message: "finish refused: changes from this turn are waiting for approval. Call finish after they are decided and the tests pass on the result.",
    };
  }
  return null;
}

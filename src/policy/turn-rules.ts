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

/**
 * Calls run in the order the model wrote them. Once a call of the turn waits for a human, a later
 * call that would run now (allowed, read or bookkeeping) must not run first: it would act on a tree
 * the waiting write has not changed yet (tests on the unedited file). Later calls that also need
 * approval join the same batch instead; this one is refused and can be sent again.
 */
export function waitingRefusal(call: ToolCall, waitingOn: string): ToolError {
  return {
    code: "turn_ended",
    message: `Not run: ${waitingOn}, earlier in this turn, waits for a human's approval, and the calls of a turn run in order. Call ${call.name} again once it is decided, if it is still needed.`,
  };
}

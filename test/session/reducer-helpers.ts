import { IllegalTransitionError } from "../../src/session/errors.js";
import type { SessionEvent } from "../../src/session/events.js";
import { fold, reduce } from "../../src/session/reducer.js";
import { created, prepared } from "../helpers/session-events.js";

/** What the reducer tests share: a session that is planning, a few end events, and how to expect a refusal. */
export const planning = (): SessionEvent[] => [created(), prepared];
export const finish: SessionEvent = { type: "finish_accepted", summary: "Fixed the loop", treeHash: "t1" };
export const failed: SessionEvent = { type: "session_failed", reason: "llm_error", message: "HTTP 500" };

/** Folds `before`, then applies `e` and returns what it threw. */
export function rejection(before: SessionEvent[], e: SessionEvent): unknown {
  const s = fold(before);
  try {
    reduce(s, e);
  } catch (err) {
    return err;
  }
  throw new Error(`${e.type} was accepted in phase ${s.phase}`);
}

export function expectIllegal(before: SessionEvent[], e: SessionEvent, why: string): void {
  const err = rejection(before, e);
  expect(err).toBeInstanceOf(IllegalTransitionError);
  expect((err as IllegalTransitionError).why).toContain(why);
}

import { IllegalTransitionError } from "../../src/session/errors.js";
import { fold } from "../../src/session/reducer.js";
import type { SessionEvent } from "../../src/session/events.js";
import { alice, toExecuting } from "../helpers/session-events.js";

const park = { type: "budget_parked", scope: "installation", unit: "usd", ceiling: 10, spent: 10.5, resumeIn: "executing" } as const;

describe("the operator's budget in the session", () => {
  test("a session parks from the phase it runs in and goes back to it once raised; raises add up", () => {
    const parked = fold([...toExecuting(), park]);
    expect(parked.phase).toBe("awaiting_budget");
    expect(parked.budget).toEqual({ raisedUsd: 0, parked: { scope: "installation", unit: "usd", ceiling: 10, spent: 10.5, resumeIn: "executing" } });
    const raised = fold([...toExecuting(), park, { type: "budget_raised", usd: 5, by: alice }, { type: "budget_raised", usd: 2.5, by: alice }]);
    expect(raised.phase).toBe("executing");
    expect(raised.budget).toEqual({ raisedUsd: 7.5, parked: null });
  });

  test("refused: a park into another phase than the session's, a raise of nothing, a raise on an ended session", () => {
    expect(() => fold([...toExecuting(), { ...park, resumeIn: "planning" }])).toThrow(IllegalTransitionError);
    expect(() => fold([...toExecuting(), { type: "budget_raised", usd: 0, by: alice }])).toThrow("a raise is a positive amount of USD");
    const cancelled: SessionEvent[] = [...toExecuting(), { type: "session_cancelled", by: "alice" }, { type: "budget_raised", usd: 1, by: alice }];
    expect(() => fold(cancelled)).toThrow(IllegalTransitionError);
  });
});

import { checkBudget } from "../../../src/agent/context/budget.js";
import type { SessionSettings } from "../../../src/session/events.js";
import { SessionScript } from "../../trace/fixtures/session-script.js";

/** `steps` model calls of 1000 prompt + 50 completion tokens, each costing `cost`. */
function spent(limits: SessionSettings["limits"], steps: number, cost: number | null = 0.01) {
  const s = new SessionScript("sess-b").executing({ limits });
  for (let i = 0; i < steps; i++) s.toolStep("read_file", { path: "a" }, "x", {}, cost);
  return s.state;
}

describe("checkBudget", () => {
  it("is not exceeded without limits", () => {
    expect(checkBudget(spent({}, 5))).toEqual({ exceeded: false });
  });

  it("stops at max_steps once that many calls were made", () => {
    expect(checkBudget(spent({ maxSteps: 3 }, 2))).toEqual({ exceeded: false });
    expect(checkBudget(spent({ maxSteps: 3 }, 3))).toEqual({
      exceeded: true,
      which: "max_steps",
      message: "step budget spent: 3 of 3 model calls made",
    });
  });

  it("stops at max_tokens, prompt and completion together", () => {
    expect(checkBudget(spent({ maxTokens: 2101 }, 2))).toEqual({ exceeded: false });
    expect(checkBudget(spent({ maxTokens: 2100 }, 2))).toEqual({
      exceeded: true,
      which: "max_tokens",
      message: "token budget spent: 2100 of 2100 tokens used",
    });
  });

  it("stops at max_cost_usd", () => {
    expect(checkBudget(spent({ maxCostUsd: 0.05 }, 4))).toEqual({ exceeded: false });
    expect(checkBudget(spent({ maxCostUsd: 0.03 }, 4))).toEqual({
      exceeded: true,
      which: "max_cost_usd",
      message: "cost budget spent: $0.0400 of $0.0300",
    });
  });

  it("says a cost limit cannot be judged when the cost is unknown, instead of inventing one", () => {
    expect(checkBudget(spent({ maxCostUsd: 0.0001 }, 4, null))).toEqual({
      exceeded: false,
      note: "cost limit $0.0001 cannot be judged: no price is known for model gpt-4o",
    });
  });

  it("reports the step limit first when several are spent", () => {
    const check = checkBudget(spent({ maxSteps: 1, maxTokens: 1, maxCostUsd: 0.0001 }, 2));
    expect(check.exceeded && check.which).toBe("max_steps");
  });
});

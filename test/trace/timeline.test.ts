import { MAX_DETAIL_CHARS, timelineRows } from "../../src/trace/timeline.js";
import { SessionScript } from "./fixtures/session-script.js";

describe("timelineRows", () => {
  it("gives one row per event with time, step and a short detail", () => {
    const s = new SessionScript().executing().toolStep("read_file", { path: "src/parser.ts" }, "content", {}, 0.0125);
    expect(timelineRows(s.events)).toEqual([
      { time: "2025-01-02 03:04:05", step: 0, event: "session_created", detail: "github acme/widgets: Fix the parser (model gpt-4o)" },
      { time: "2025-01-02 03:04:06", step: 0, event: "workspace_prepared", detail: "base bbbbbbbbbbbb" },
      {
        time: "2025-01-02 03:04:07",
        step: 0,
        event: "plan_submitted",
        detail: "pppppppppppp: Fix the off-by-one in the parser (3 steps)",
      },
      { time: "2025-01-02 03:04:08", step: 0, event: "plan_approved", detail: "pppppppppppp by @alice via review" },
      { time: "2025-01-02 03:04:09", step: 1, event: "llm_called", detail: "gpt-4o 1000+50 tokens, 800 ms, $0.0125" },
      { time: "2025-01-02 03:04:10", step: 1, event: "assistant_message", detail: "calls read_file" },
      { time: "2025-01-02 03:04:11", step: 1, event: "tool_result", detail: "read_file src/parser.ts ok, 12 ms" },
    ]);
  });

  it("shows failures, unknown cost and estimated usage as such", () => {
    const s = new SessionScript().executing().add({
      type: "llm_called",
      model: "local-model",
      usage: { promptTokens: 7, completionTokens: 0, estimated: true },
      latencyMs: 1500,
      retries: 2,
      costUsd: null,
      ok: false,
      error: "429 rate limited",
    });
    expect(timelineRows(s.events).at(-1)!.detail).toBe("failed: 429 rate limited; local-model 7+0 tokens (estimated), 1.5 s, cost unknown, 2 retries");
  });

  it("keeps details on one line and short", () => {
    const s = new SessionScript().executing().add({ type: "user_message", content: `line 1\nline 2\r\n${"x".repeat(500)}`, by: "bob" });
    const detail = timelineRows(s.events).at(-1)!.detail;
    expect(detail.startsWith("@bob: line 1 ⏎ line 2 ⏎ xxx")).toBe(true);
    expect(detail).not.toMatch(/[\r\n]/);
    expect(Array.from(detail)).toHaveLength(MAX_DETAIL_CHARS);
    expect(detail.endsWith("…")).toBe(true);
  });
});

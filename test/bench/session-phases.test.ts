import type { StoredEvent } from "../../src/session/events.js";
import { breakdown, breakdownText, longestGaps, medianBreakdown, split } from "../../bench/session-phases.js";

const T0 = Date.parse("2026-12-06T09:00:00.000Z");
let seq = 0;
/** An event appended `s` seconds after T0 (only the fields the breakdown reads matter). */
const at = (s: number, e: Record<string, unknown>): StoredEvent => ({ seq: seq++, at: new Date(T0 + s * 1000).toISOString(), ...e }) as unknown as StoredEvent;

const SESSION: StoredEvent[] = [
  at(0.5, { type: "session_created" }),
  at(1.5, { type: "workspace_prepared" }),
  at(1.8, { type: "resumed" }),
  at(12, { type: "setup_run", durationMs: 10_000 }),
  at(12.1, { type: "llm_called", latencyMs: 50 }),
  at(15, { type: "baseline_run", durationMs: 2_500 }),
  at(15.2, { type: "tool_started" }),
  at(18.3, { type: "test_run", durationMs: 3_000 }),
  at(18.4, { type: "tool_result" }),
  at(18.9, { type: "diff_updated" }),
  at(19.5, { type: "published" }),
];

describe("a session's wall time by phase, from its ledger", () => {
  test("each gap goes to the phase its later event closes, less the work that event reports", () => {
    const b = breakdown(SESSION, T0, T0 + 20_000);
    expect(b.start).toBeCloseTo(500, 6);
    expect(b.clone).toBeCloseTo(1000, 6);
    expect(b.setup).toBe(10_000);
    expect(b["resume (repository config, sandbox choice, limits)"]).toBeCloseTo(300, 6);
    expect(b["around setup (sandbox, dependency cache)"]).toBeCloseTo(200, 6);
    expect(b.model).toBe(50);
    expect(b.tests).toBe(5_500);
    expect(b["around baseline (sandbox, snapshot)"]).toBeCloseTo(400, 6);
    expect(b["tools (beyond test runs)"]).toBeCloseTo(100, 6);
    expect(b["snapshots and diffs"]).toBeCloseTo(500, 6);
    expect(b.publication).toBeCloseTo(600, 6);
    expect(b.end).toBeCloseTo(500, 6);
    // Nothing is lost or counted twice: the phases add up to the wall time.
    const { workMs, ownMs } = split(b);
    expect(workMs).toBe(15_550);
    expect(workMs + ownMs).toBeCloseTo(20_000, 6);
  });

  test("the median of each phase over sessions, a missing phase counting as 0", () => {
    const m = medianBreakdown([{ clone: 100, publication: 10 }, { clone: 300 }, { clone: 200, publication: 30 }]);
    expect(m).toEqual({ clone: 200, publication: 10 });
  });

  test("the text names Patchgate's own phases, largest first, and not the work", () => {
    expect(breakdownText({ setup: 9000, clone: 1200, publication: 3400 })).toBe("publication 3.40 s, clone 1.20 s");
  });

  test("the longest gaps name the two events around them", () => {
    expect(longestGaps(SESSION, 2)).toEqual(["resumed → setup_run 10.20 s", "tool_started → test_run 3.10 s"]);
  });
});

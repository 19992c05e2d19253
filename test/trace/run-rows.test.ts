import type { StoredEvent } from "../../src/session/events.js";
import { timelineRows } from "../../src/trace/timeline.js";
import { renderReport } from "../../src/trace/report/report.js";
import { okResult, StoryLedger } from "./fixtures/story-ledger.js";

/** The rows the CLI prints for setup and test runs: the same words for a baseline as for a test run. */
describe("timeline rows of setup and test runs", () => {
  const at = "2026-12-05T10:00:00.000Z";
  const run = { command: "npm test", exitCode: 1, treeHash: "abcdef0123456789", durationMs: 1234, timedOut: false, summary: "1 failed" };
  const detail = (e: Record<string, unknown>) => timelineRows([{ seq: 1, at, ...e } as StoredEvent])[0].detail;

  test("baseline_run reads like test_run, not as raw JSON", () => {
    expect(detail({ type: "baseline_run", ...run })).toBe("npm test failed (exit 1) in 1.2 s on abcdef012345");
    expect(detail({ type: "baseline_run", ...run })).toBe(detail({ type: "test_run", ...run }));
  });

  test("an offline setup names the setting that kept it offline", () => {
    const setup = { type: "setup_run", command: "npm install", exitCode: 1, durationMs: 2100, network: false, summary: "" };
    expect(detail(setup)).toBe("npm install failed (exit 1) in 2.1 s, without network: sandbox.network_for_setup is false");
  });
});

test("the check run's report says how a killed setup ended", () => {
  const s = new StoryLedger("sess-killed").start();
  const setup = {
    type: "setup_run" as const,
    command: "npm install",
    exitCode: null,
    durationMs: 600_200,
    network: true,
    summary: "killed by SIGKILL: the time limit",
    timedOut: true,
    killed: { signal: "SIGKILL", limit: "time" as const },
  };
  s.step(null, [
    { tool: "run_tests", args: {}, decision: "allow", rule: "allow:test-command", subject: "npm test", facts: [setup], result: okResult({ passed: false }) },
  ]);
  const out = renderReport(s.state, s.events, { sessionId: s.sessionId, format: "text" });
  expect(out.timeline).toContain("setup `npm install` failed, killed by SIGKILL: the time limit in 10 min 0 s (with network)");
});

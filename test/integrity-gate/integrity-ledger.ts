import type { SessionEvent, StoredEvent } from "../../src/session/events.js";
import type { Approver } from "../../src/session/types.js";
import type { IntegrityReportRecord } from "../../src/session/test-integrity.js";
import { fold } from "../../src/session/reducer.js";
import { approved, created, prepared, submitted } from "../helpers/session-events.js";

export const DIGEST = "a".repeat(64);
const TREE = "t".repeat(40);
export const maintainer: Approver = { login: "alice", via: "comment" };

export const SKIP_REPORT: IntegrityReportRecord = {
  findings: [
    {
      kind: "skip_marker_added",
      detector: "js.skip",
      path: "test/add.test.js",
      message: "`test.skip(` added in test/add.test.js (0 → 1 skip marker)",
      lines: ['+test.skip("adds", () => {'],
    },
  ],
  detectorsRun: 20,
  testFilesExamined: 1,
};

/** A session whose finish call `f1` is open in execute mode, the tests passing on TREE, with the repository's `tests` block. */
export function untilFinishCalled(tests: Record<string, unknown> = {}): SessionEvent[] {
  return [
    { ...created(), repoConfig: { tests } },
    prepared,
    submitted(),
    approved(),
    { type: "assistant_message", content: null, toolCalls: [{ id: "f1", name: "finish", arguments: '{"summary":"done"}' }] },
    { type: "test_run", command: "npm test", exitCode: 0, treeHash: TREE, durationMs: 900, timedOut: false, summary: "# pass 1" },
  ];
}

export const requested = (digest = DIGEST, report = SKIP_REPORT): SessionEvent => ({ type: "integrity_requested", callId: "f1", digest, report });

/** The events of an accepted finish with this verdict, as finish writes them. */
export function accepted(report: IntegrityReportRecord, digest = DIGEST): SessionEvent[] {
  return [
    { type: "integrity_checked", treeHash: TREE, digest, report },
    { type: "tool_result", callId: "f1", tool: "finish", toolVersion: "3", input: { summary: "done" }, result: { ok: true, data: {} }, durationMs: 5 },
    { type: "finish_accepted", summary: "done", treeHash: TREE, paths: ["src/add.js"] },
  ];
}

export function stored(events: readonly SessionEvent[]): { state: ReturnType<typeof fold>; events: StoredEvent[] } {
  return { state: fold(events), events: events.map((e, i) => ({ ...e, seq: i, at: new Date(Date.UTC(2026, 11, 6, 6, 0, i)).toISOString() })) };
}

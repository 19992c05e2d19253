import { renderReport } from "../../src/trace/report/report.js";
import { hex, okResult, StoryLedger } from "./fixtures/story-ledger.js";

/** A test run that wrote files nobody approved (`changes_rolled_back`, src/runs/guarded-run.ts) in the report. */
test("rollbacks: in Governance, and as the run's own line in its step", () => {
  const s = new StoryLedger("sess-rollback").start().read().plan(hex("p", 64));
  s.approvePlan({ login: "alice", via: "review" }, hex("p", 64));
  const run = { command: "sh test.sh", exitCode: 0, treeHash: hex("t"), durationMs: 9, timedOut: false, summary: "ok" };
  s.step(null, [
    {
      tool: "run_tests",
      args: {},
      decision: "allow",
      rule: "allow:test-command",
      subject: "sh test.sh",
      facts: [
        { type: "test_run", ...run },
        { type: "changes_rolled_back", tool: "run_tests", paths: ["snap/a.snap", "README.md"] },
      ],
      result: okResult({ passed: true, exit_code: 0, tree_hash: hex("t") }),
    },
  ]);
  const out = renderReport(s.state, s.events, { sessionId: s.sessionId, format: "text" });
  expect(out.summary).toContain("Rolled back\n\n- Step 3: `run_tests` changed `snap/a.snap`, `README.md` — put back");
  expect(out.timeline).toMatch(/▸ Step 3 · [\d:]+ · tests passed; 2 unapproved changes rolled back\n/);
  expect(out.timeline).toMatch(
    /`run_tests` `sh test.sh` · `allow:test-command` → allow · ok: exit 0 on tree \w+ · 40 ms\n\s+- [\d:]+ changes by `run_tests` to 2 files put back \(nobody approved them\): `snap\/a.snap`, `README.md`/,
  );
});

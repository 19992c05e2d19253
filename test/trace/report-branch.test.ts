import { renderReport } from "../../src/trace/report/report.js";
import { hex, okResult, StoryLedger } from "./fixtures/story-ledger.js";

/** Events other parts of the runtime record, as a reviewer reads them in the timeline. */
test("a rebuild on commits someone else pushed is its step's news; the push lease is bookkeeping", () => {
  const s = new StoryLedger("sess-rebase").start().read().plan(hex("p", 64));
  s.add({ type: "branch_rebased", branch: s.branch, onto: hex("theirs"), foreign: [hex("theirs")] });
  const out = renderReport(s.state, s.events, { sessionId: s.sessionId, format: "text" });
  expect(out.timeline).toMatch(/▸ Step 2 · [\d:]+ · todos 0\/2 done; submitted plan `\w+`; rebuilt on 1 commit pushed by someone else\n/);
  expect(out.timeline).toContain(
    `branch \`patchgate/issue-1\` had 1 commit Patchgate did not make (\`${hex("theirs").slice(0, 7)}\`); the change was rebuilt on \`${hex("theirs").slice(0, 7)}\``,
  );
  expect(out.timeline).not.toMatch(/branch_claimed|branch_pushed|lease/);
});

test("a setup that ran without network says why", () => {
  const s = new StoryLedger("sess-setup").start();
  const run = { command: "sh test.sh", exitCode: 0, treeHash: hex("t"), durationMs: 9, timedOut: false, summary: "ok" };
  s.step(null, [
    {
      tool: "run_tests",
      args: {},
      decision: "allow",
      rule: "allow:test-command",
      subject: "sh test.sh",
      facts: [
        {
          type: "setup_run",
          command: "npm ci",
          exitCode: 0,
          durationMs: 1200,
          network: false,
          summary: "",
          withheld: { reason: "setup_inputs_changed", paths: ["package-lock.json"] },
        },
        { type: "test_run", ...run },
      ],
      result: okResult({ passed: true, exit_code: 0, tree_hash: hex("t") }),
    },
  ]);
  const out = renderReport(s.state, s.events, { sessionId: s.sessionId, format: "text" });
  expect(out.timeline).toContain(
    "setup `npm ci` ok in 1.2 s (without network: its inputs differ from the default branch's (package-lock.json), so they are not the maintainer's)",
  );
});

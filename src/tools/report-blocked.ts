import { z } from "zod";
import { defineTool } from "./define-tool.js";
import { ok } from "./tool.js";

const DESCRIPTION = `Stop here and tell the maintainers why the task cannot be finished; the session ends "blocked".
- Use it when the test gate cannot be met for reasons outside the task: tests that already fail on the base tree (see the baseline in the runtime context), a flaky or broken test setup, a missing service, or a task that is impossible as asked.
- Not for giving up early: try the fix and run_tests first.
- reason is posted for the maintainers: say what you tried, what fails and why it cannot pass, and what a human should do. The work so far is kept in the draft.
- Nothing runs after it in the same turn.`;

const input = z.strictObject({
  reason: z.string().trim().min(1).max(4000).describe("What was tried, what fails and why it cannot pass, and what a human should do."),
});

export const reportBlockedTool = defineTool({
  name: "report_blocked",
  version: "1",
  description: DESCRIPTION,
  input,
  // The report is a fact; the session ends once the turn's calls are answered (agent/blocked-endings.ts).
  effect: { risk: "meta", mutatesWorkspace: false, idempotent: true },
  modes: ["plan", "execute"],
  request() {
    return { kind: "meta" };
  },
  async execute(args) {
    return { result: ok({ blocked: true, reason: args.reason }), events: [{ type: "block_reported", reason: args.reason }] };
  },
});

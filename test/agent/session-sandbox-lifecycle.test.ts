import { approvePlan, autoApproveWrites } from "../../src/agent/approvals.js";
import { BubblewrapSession } from "../../src/sandbox/bubblewrap-session.js";
import type { Sandbox, SessionSandbox } from "../../src/sandbox/types.js";
import { ScriptedLLM } from "../fakes/scripted-llm.js";
import { BUGGY_ADD_REPO } from "../helpers/git-fixture.js";
import { SessionHarness } from "../helpers/session-harness.js";
import { descendants } from "../sandbox/process-tree.js";

const cli = { login: "maintainer", via: "cli" as const };

/** The bwrap processes under this test process (started by its spawn helper) that still run. */
function ourBwraps(): number[] {
  return descendants(process.pid)
    .filter((p) => p.comm === "bwrap" && p.state !== "Z")
    .map((p) => p.pid);
}

/**
 * A resume's commands run in one sandbox kept for the session (run_command, run_tests and the
 * baseline alike), and the resume ends it when the session parks or ends.
 */
describe("the session's long-lived sandbox", () => {
  let h: SessionHarness;
  afterEach(() => h.dispose());

  test("commands of a resume share one sandbox; parking and ending leave no sandbox running", async () => {
    h = await SessionHarness.create(BUGGY_ADD_REPO);
    const opened: BubblewrapSession[] = [];
    const base = h.sandbox!;
    const observed: Sandbox = {
      backend: base.backend,
      run: (req) => base.run(req),
      openSession: (): SessionSandbox => {
        const s = base.openSession!();
        if (s instanceof BubblewrapSession) opened.push(s);
        return s;
      },
    };
    const llm = new ScriptedLLM([
      { toolCalls: [{ name: "submit_plan", arguments: { summary: "fix", steps: ["fix add"] } }] },
      { toolCalls: [{ name: "run_command", arguments: { argv: ["ls"] } }] },
      { toolCalls: [{ name: "run_command", arguments: { argv: ["cat", "src/add.js"] } }] },
      { toolCalls: [{ name: "read_file", arguments: { path: "src/add.js" } }] },
      { toolCalls: [{ name: "edit_file", arguments: { path: "src/add.js", edits: [{ search: "a - b", replace: "a + b" }] } }] },
      { toolCalls: [{ name: "run_tests", arguments: {} }] },
      { toolCalls: [{ name: "finish", arguments: { summary: "fixed add" } }] },
    ]);
    expect(await h.resume(llm, { sandbox: observed })).toEqual({ kind: "parked", phase: "awaiting_plan_approval" });
    await approvePlan(h.ledger, cli, h.ledger.state.planHash!);

    // The baseline test run and both commands, then the edit waits for a human: the session parks.
    expect(await h.resume(llm, { sandbox: observed })).toEqual({ kind: "parked", phase: "awaiting_write_approval" });
    const parked = opened[1]!;
    expect({ longLived: parked.longLivedRuns, oneShot: parked.oneShotRuns, fallback: parked.fallbackReason }).toEqual({
      longLived: 3,
      oneShot: 0,
      fallback: null,
    });
    expect(ourBwraps()).toEqual([]);

    await autoApproveWrites(h.ledger, cli);
    const ended = await h.resume(llm, { sandbox: observed });
    expect(ended).toEqual({ kind: "ready_to_publish" });
    expect(h.ledger.history.flatMap((e) => (e.type === "tool_result" ? [e.tool] : []))).toEqual([
      "submit_plan",
      "run_command",
      "run_command",
      "read_file",
      "edit_file",
      "run_tests",
      "finish",
    ]);
    expect({ longLived: opened[2]!.longLivedRuns, oneShot: opened[2]!.oneShotRuns }).toEqual({ longLived: 1, oneShot: 0 });
    expect(ourBwraps()).toEqual([]);
  });
});

import { approvePlan, autoApproveWrites } from "../../src/agent/approvals.js";
import { BubblewrapSession } from "../../src/sandbox/bubblewrap-session.js";
import type { Sandbox, SessionSandbox } from "../../src/sandbox/types.js";
import { ScriptedLLM } from "../fakes/scripted-llm.js";
import { BUGGY_ADD_REPO } from "../helpers/git-fixture.js";
import { SessionHarness } from "../helpers/session-harness.js";
import { bwrapsNaming, descendants, leftAfter } from "../sandbox/process-tree.js";
import { StuckAfterScript } from "../fakes/stuck-model.js";

const cli = { login: "maintainer", via: "cli" as const };

/** The bwrap processes under this test process (started by its spawn helper) that still run. */
function ourBwraps(): number[] {
  return descendants(process.pid)
    .filter((p) => p.comm === "bwrap" && p.state !== "Z" && !before.has(p.pid))
    .map((p) => p.pid);
}

/**
 * Bwraps this process already ran before the test: jest runs several test files in one process,
 * and another file's may still be closing (a sandbox an abandoned session kept is ended by whoever
 * abandoned it, see the last test). Only the ones this test starts are this test's to account for.
 */
let before = new Set<number>();

/**
 * The bwraps still running once they have had `ms` to exit. Closing kills the outer bwrap and waits
 * for it; the sandbox's pid 1 (in a session of its own) dies from --die-with-parent a moment later,
 * and a process that is not our child gives no exit event to wait on, so this looks again until then.
 */
async function bwrapsLeftAfter(ms: number): Promise<number[]> {
  for (const until = Date.now() + ms; ourBwraps().length > 0 && Date.now() < until;) await new Promise((r) => setTimeout(r, 20));
  return ourBwraps();
}

/**
 * A resume's commands run in one sandbox kept for the session (run_command, run_tests and the
 * baseline alike), and the resume ends it when the session parks or ends.
 */
describe("the session's long-lived sandbox", () => {
  let h: SessionHarness;
  let opened: BubblewrapSession[] = [];
  afterEach(async () => {
    // Whatever the test found, nothing it started may outlive it (a live bwrap keeps jest from exiting).
    for (const s of opened) await s.close();
    for (const pid of ourBwraps()) {
      try {
        process.kill(-pid, "SIGKILL");
      } catch {
        // Gone meanwhile.
      }
    }
    opened = [];
    await h.dispose();
  });

  test("commands of a resume share one sandbox; parking and ending leave no sandbox running", async () => {
    before = new Set(ourBwraps());
    h = await SessionHarness.create(BUGGY_ADD_REPO);
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
    expect(await bwrapsLeftAfter(5_000)).toEqual([]);

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
    expect(await bwrapsLeftAfter(5_000)).toEqual([]);
  });

  test("an aborted resume ends its sandbox at once, though a model call that ignores the abort keeps the resume from returning", async () => {
    before = new Set(ourBwraps());
    h = await SessionHarness.create(BUGGY_ADD_REPO);
    const plan = new ScriptedLLM([{ toolCalls: [{ name: "submit_plan", arguments: { summary: "fix", steps: ["fix add"] } }] }]);
    expect(await h.resume(plan)).toEqual({ kind: "parked", phase: "awaiting_plan_approval" });
    await approvePlan(h.ledger, cli, h.ledger.state.planHash!);
    // The baseline and one command run in the session's kept sandbox; then the model never answers.
    const llm = new StuckAfterScript([{ toolCalls: [{ name: "run_command", arguments: { argv: ["ls"] } }] }]);
    const stop = new AbortController();
    let returned = false;
    void h.resume(llm, { signal: stop.signal }).finally(() => (returned = true));
    await llm.stuck;
    expect(bwrapsNaming(h.workdir).length).toBeGreaterThan(0);

    // A stop, or the lease passing to another worker (src/github/session-work/durable-runner.ts), is this abort.
    stop.abort(new Error("stopped"));
    expect(await leftAfter(5_000, () => bwrapsNaming(h.workdir))).toEqual([]);
    expect(returned).toBe(false);
  });
});

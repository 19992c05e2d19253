import { existsSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { approvePlan, autoApproveWrites } from "../../src/agent/approvals.js";
import { runsBesideBaseline } from "../../src/agent/baseline.js";
import { ALL_TOOLS } from "../../src/tools/registry.js";
import type { LLMRequest, LLMResponse } from "../../src/agent/llm/types.js";
import type { StoredEvent } from "../../src/session/events.js";
import { ScriptedLLM, type ScriptStep } from "../fakes/scripted-llm.js";
import { BUGGY_ADD_REPO } from "../helpers/git-fixture.js";
import { SessionHarness } from "../helpers/session-harness.js";

const cli = { login: "maintainer", via: "cli" as const };
// The tests hold while `.git/pg-hold` exists (the sandbox sees .git read-only); the model lifts it.
const REPO = { ...BUGGY_ADD_REPO, "test.sh": `while [ -e .git/pg-hold ]; do sleep 0.05; done\n${BUGGY_ADD_REPO["test.sh"]}` };

const read = (path: string): ScriptStep => ({ toolCalls: [{ name: "read_file", arguments: { path } }] });
const edit: ScriptStep = { toolCalls: [{ name: "edit_file", arguments: { path: "src/add.js", edits: [{ search: "a - b", replace: "a + b" }] } }] };
const tests: ScriptStep = { toolCalls: [{ name: "run_tests", arguments: {} }] };
const finish: ScriptStep = { toolCalls: [{ name: "finish", arguments: { summary: "add adds" } }] };

/** The scripted model, lifting the tests' hold when it is asked the `liftAt`-th time (1-based). */
class LiftingModel extends ScriptedLLM {
  private asked = 0;
  constructor(
    script: ScriptStep[],
    private readonly hold: string,
    private readonly liftAt: number,
  ) {
    super(script);
  }
  override async complete(req: LLMRequest): Promise<LLMResponse> {
    if (++this.asked === this.liftAt) unlinkSync(this.hold);
    return super.complete(req);
  }
}

const runtimeContext = (req: LLMRequest): string => req.messages.map((m) => (typeof m.content === "string" ? m.content : "")).join("\n");
const at = (h: readonly StoredEvent[], p: (e: StoredEvent) => boolean): number => h.findIndex(p);
const resultOf = (tool: string) => (e: StoredEvent) => e.type === "tool_result" && e.tool === tool;
const allResultsOf = (h: readonly StoredEvent[], tool: string): number[] => h.flatMap((e, i) => (resultOf(tool)(e) ? [i] : []));

/**
 * The baseline test run goes on beside the model in execute mode: the model is asked, and its reads
 * are answered, while the tests run; anything else waits for them, so the baseline is still the base
 * tree's, and the session never waits for other sessions' test runs before its first model call.
 */
describe("the baseline beside the model's reads", () => {
  let h: SessionHarness;
  afterEach(() => h.dispose());

  async function approvedWithHold(settings = {}): Promise<string> {
    h = await SessionHarness.create(REPO, settings);
    const planning = new ScriptedLLM([{ toolCalls: [{ name: "submit_plan", arguments: { summary: "fix", steps: ["fix add"] } }] }]);
    expect(await h.resume(planning)).toEqual({ kind: "parked", phase: "awaiting_plan_approval" });
    await approvePlan(h.ledger, cli, h.ledger.state.planHash!);
    await autoApproveWrites(h.ledger, cli);
    const hold = join(h.workspace.root, ".git", "pg-hold");
    writeFileSync(hold, "");
    return hold;
  }

  test("reads are answered while the tests run; the edit waits for the baseline, which saw the base tree", async () => {
    const hold = await approvedWithHold();
    // Lifted on the third call: the baseline cannot end before two reads were answered beside it.
    const llm = new LiftingModel([read("src/add.js"), read("README.md"), edit, tests, finish], hold, 3);
    expect(await h.resume(llm)).toEqual({ kind: "ready_to_publish" });
    expect(existsSync(hold)).toBe(false);

    const history = h.ledger.history;
    const baseline = at(history, (e) => e.type === "baseline_run");
    const reads = allResultsOf(history, "read_file");
    expect(reads).toHaveLength(2);
    expect(Math.max(...reads)).toBeLessThan(baseline);
    expect(baseline).toBeLessThan(at(history, resultOf("edit_file")));
    expect(h.ledger.state.baseline).toMatchObject({ command: "sh test.sh", exitCode: 1 }); // add() still subtracts there
    // What the model was told: running while it read, the result once it was in.
    const asked = llm.requests.slice(1).map(runtimeContext);
    expect(asked[0]).toContain("baseline: the tests are running on the base tree");
    expect(asked[1]).toContain("baseline: the tests are running on the base tree");
    expect(asked[3]).toContain("baseline (the tests on the base tree, before your changes): `sh test.sh` failed (exit 1)");
    expect(asked[3]).not.toContain("the tests are running");
  });

  test("a resume that runs out of model calls while the tests run records the baseline before it fails", async () => {
    const hold = await approvedWithHold({ maxStepsPerResume: 2 });
    const llm = new LiftingModel([read("src/add.js"), read("README.md")], hold, 2);
    expect(await h.resume(llm)).toEqual({ kind: "ended", phase: "failed" });
    const history = h.ledger.history;
    expect(h.ledger.state.failure?.reason).toBe("loop_limit");
    expect(at(history, (e) => e.type === "baseline_run")).toBeGreaterThan(Math.max(...allResultsOf(history, "read_file")));
    expect(at(history, (e) => e.type === "baseline_run")).toBeLessThan(at(history, (e) => e.type === "session_failed"));
  });

  test("a command waits for the baseline: it never runs on a tree the tests are still running in", async () => {
    const hold = await approvedWithHold();
    const command: ScriptStep = { toolCalls: [{ name: "run_command", arguments: { argv: ["cat", "src/add.js"] } }] };
    // The hold is lifted on the second call, the command's; it is answered after the baseline.
    const llm = new LiftingModel([read("src/add.js"), command, edit, tests, finish], hold, 2);
    expect(await h.resume(llm)).toEqual({ kind: "ready_to_publish" });
    const history = h.ledger.history;
    const baseline = at(history, (e) => e.type === "baseline_run");
    expect(at(history, resultOf("read_file"))).toBeLessThan(baseline);
    expect(at(history, resultOf("run_command"))).toBeGreaterThan(baseline);
    expect(at(history, (e) => e.type === "policy_decided" && e.tool === "run_command")).toBeGreaterThan(baseline);
  });
});

test("only the workspace reads and the todo list run beside the baseline; every other built-in tool waits", () => {
  const beside = ALL_TOOLS.filter(runsBesideBaseline).map((t) => t.name);
  expect(beside.sort()).toEqual(["list_files", "read_file", "search_code", "update_todos"]);
  expect(ALL_TOOLS.length).toBeGreaterThan(beside.length + 6);
});

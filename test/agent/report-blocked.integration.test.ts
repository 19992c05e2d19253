import { approvePlan, autoApproveWrites } from "../../src/agent/approvals.js";
import { ScriptedLLM } from "../fakes/scripted-llm.js";
import { BUGGY_ADD_REPO } from "../helpers/git-fixture.js";
import { SessionHarness } from "../helpers/session-harness.js";

const cli = { login: "maintainer", via: "cli" as const };
const plan = { toolCalls: [{ name: "submit_plan", arguments: { summary: "fix", steps: ["fix add"] } }] };

describe("report_blocked ends the session blocked", () => {
  let h: SessionHarness;
  afterEach(() => h.dispose());

  test("in execute mode: the calls after it in the turn are refused, then the session is blocked with the reason", async () => {
    h = await SessionHarness.create(BUGGY_ADD_REPO);
    const llm = new ScriptedLLM([
      plan,
      {
        toolCalls: [
          { name: "report_blocked", arguments: { reason: "the suite needs a database" } },
          { name: "write_file", arguments: { path: "x.txt", content: "x\n" } },
        ],
      },
    ]);
    await h.resume(llm);
    await approvePlan(h.ledger, cli, h.ledger.state.planHash!);
    await autoApproveWrites(h.ledger, cli);
    expect(await h.resume(llm)).toEqual({ kind: "ended", phase: "blocked" });
    const results = h.ledger.history.flatMap((e) => (e.type === "tool_result" ? [`${e.tool}:${e.result.ok ? "ok" : e.result.error.code}`] : []));
    expect(results).toEqual(["submit_plan:ok", "report_blocked:ok", "write_file:turn_ended"]);
    expect(h.ledger.history.at(-1)).toMatchObject({ type: "session_blocked", reason: "reported_by_agent", message: "the suite needs a database" });
    expect(h.ledger.state.blocked).toEqual({ reason: "reported_by_agent", message: "the suite needs a database" });
  });

  test("while planning (a task impossible as asked)", async () => {
    h = await SessionHarness.create(BUGGY_ADD_REPO);
    expect(await h.resume(new ScriptedLLM([{ toolCalls: [{ name: "report_blocked", arguments: { reason: "add() is already right" } }] }]))).toEqual({
      kind: "ended",
      phase: "blocked",
    });
    expect(h.ledger.state.mode).toBe("plan");
  });

  test("a crash between the report and the ending: the resume ends it, without another model call", async () => {
    h = await SessionHarness.create(BUGGY_ADD_REPO);
    const llm = new ScriptedLLM([{ toolCalls: [{ name: "report_blocked", arguments: { reason: "r" } }] }]);
    // What a process that died right after the tool's result leaves: the report, no session_blocked.
    await h.resume(llm);
    const events = h.ledger.history.slice(0, -1).map(({ seq: _s, at: _a, ...e }) => e);
    const again = await SessionHarness.create(BUGGY_ADD_REPO, {}, "s-crash");
    await again.ledger.append(...events.slice(1).filter((e) => e.type !== "workspace_prepared"));
    const calls = again.ledger.state.usage.calls;
    expect(await again.resume(new ScriptedLLM([]))).toEqual({ kind: "ended", phase: "blocked" });
    expect(again.ledger.state.usage.calls).toBe(calls);
    await again.dispose();
  });
});

describe("no test command", () => {
  let h: SessionHarness;
  afterEach(() => h.dispose());

  test("the session ends blocked before the first model call, saying so", async () => {
    h = await SessionHarness.create({ ...BUGGY_ADD_REPO, ".github/patchgate.yml": "sandbox:\n  max_processes: 64\n" });
    expect(await h.resume(new ScriptedLLM([plan]))).toEqual({ kind: "ended", phase: "blocked" });
    expect(h.ledger.history.some((e) => e.type === "llm_called")).toBe(false);
    expect(h.ledger.state.blocked?.reason).toBe("no_test_command");
    expect(h.ledger.state.blocked?.message).toContain("No test command was found");
  });
});

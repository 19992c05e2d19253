import { ScriptedLLM } from "../fakes/scripted-llm.js";
import { approvePlan } from "../../src/agent/approvals.js";
import { BUGGY_ADD_REPO } from "../helpers/git-fixture.js";
import { SessionHarness } from "../helpers/session-harness.js";

const cli = { login: "maintainer", via: "cli" as const };
const plan = { summary: "Fix add", steps: ["make add add"] };
const read = { name: "read_file", arguments: { path: "src/add.js" } };

describe("a write that changes nothing", () => {
  let h: SessionHarness;
  afterEach(() => h.dispose());

  test.each([
    ["write_file with the file's own content", { name: "write_file", arguments: { path: "src/add.js", content: BUGGY_ADD_REPO["src/add.js"] } }],
    ["edit_file replacing a text with itself", { name: "edit_file", arguments: { path: "src/add.js", edits: [{ search: "a - b", replace: "a - b" }] } }],
  ])("%s is answered as a no-op, without asking anyone to approve it", async (_name, call) => {
    h = await SessionHarness.create(BUGGY_ADD_REPO);
    const llm = new ScriptedLLM([
      { toolCalls: [read] },
      { toolCalls: [{ name: "submit_plan", arguments: plan }] },
      { toolCalls: [call] },
      { toolCalls: [{ name: "report_blocked", arguments: { reason: "nothing to do" } }] },
    ]);
    expect(await h.resume(llm)).toEqual({ kind: "parked", phase: "awaiting_plan_approval" });
    await approvePlan(h.ledger, cli, h.ledger.state.planHash!);
    await h.resume(llm);
    expect(h.ledger.state.phase).toBe("blocked");
    expect(h.results().slice(-2, -1)).toEqual([{ tool: call.name, ok: true }]);
    expect(h.ledger.history.some((e) => e.type === "approval_requested")).toBe(false);
    const answered = h.ledger.history.filter((e) => e.type === "tool_result" && e.tool === call.name).at(-1);
    expect(JSON.stringify(answered)).toContain("src/add.js already has exactly this content: nothing was written");
  });
});

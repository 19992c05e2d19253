import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ScriptedLLM } from "../fakes/scripted-llm.js";
import { approvePlan, approveWrites } from "../../src/agent/approvals.js";
import { BUGGY_ADD_REPO } from "../helpers/git-fixture.js";
import { SessionHarness } from "../helpers/session-harness.js";

const cli = { login: "maintainer", via: "cli" as const };
const plan = { summary: "Fix add", steps: ["read src/add.js", "make add add", "run tests"] };

describe("the two regressions of the original design", () => {
  let h: SessionHarness;
  afterEach(() => h.dispose());

  test("write_file before plan approval is refused; the same request after approval goes to approval", async () => {
    h = await SessionHarness.create(BUGGY_ADD_REPO);
    const write = { name: "write_file", arguments: { path: "src/new.js", content: "export const x = 1;\n" } };
    const llm = new ScriptedLLM([{ toolCalls: [write] }, { toolCalls: [{ name: "submit_plan", arguments: plan }] }, { toolCalls: [write] }]);

    expect(await h.resume(llm)).toEqual({ kind: "parked", phase: "awaiting_plan_approval" });
    expect(h.results()[0]).toEqual({ tool: "write_file", ok: false, code: "plan_not_approved" });

    await approvePlan(h.ledger, cli, h.ledger.state.planHash!);
    expect(await h.resume(llm)).toEqual({ kind: "parked", phase: "awaiting_write_approval" });
    const pending = h.ledger.state.pending!;
    expect(pending.calls.map((c) => [c.tool, c.rule])).toEqual([["write_file", expect.any(String)]]);
    expect(pending.calls[0].input).toEqual(write.arguments);
    expect(pending.calls[0].preview).toContain("+export const x = 1;");
  });

  test("edit_file on a file not read is refused with edit_without_read; after read_file the edit applies", async () => {
    h = await SessionHarness.create(BUGGY_ADD_REPO);
    const edit = { name: "edit_file", arguments: { path: "src/add.js", edits: [{ search: "return a - b;", replace: "return a + b;" }] } };
    const llm = new ScriptedLLM([
      { toolCalls: [{ name: "submit_plan", arguments: plan }] },
      { toolCalls: [edit] },
      { toolCalls: [{ name: "read_file", arguments: { path: "src/add.js" } }] },
      { toolCalls: [edit] },
    ]);
    await h.resume(llm);
    await approvePlan(h.ledger, cli, h.ledger.state.planHash!);
    expect(await h.resume(llm)).toEqual({ kind: "parked", phase: "awaiting_write_approval" });
    expect(h.results().slice(-2)).toEqual([
      { tool: "edit_file", ok: false, code: "edit_without_read" },
      { tool: "read_file", ok: true },
    ]);
    await approveWrites(h.ledger, cli, h.ledger.state.pending!.digest);
    // The approved batch runs at the start of the next resume; the script is then exhausted → llm_error.
    await h.resume(llm);
    expect(h.results().slice(-1)).toEqual([{ tool: "edit_file", ok: true }]);
    expect(readFileSync(join(h.workspace.root, "src/add.js"), "utf8")).toContain("return a + b;");
  });
});

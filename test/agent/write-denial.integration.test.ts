import { existsSync } from "node:fs";
import { join } from "node:path";
import { ScriptedLLM } from "../fakes/scripted-llm.js";
import { approvePlan, denyWrites } from "../../src/agent/approvals.js";
import { BUGGY_ADD_REPO } from "../helpers/git-fixture.js";
import { SessionHarness } from "../helpers/session-harness.js";
import { toolResultOf } from "../fakes/chat/turns.js";

const cli = { login: "maintainer", via: "cli" as const };

describe("a denied batch", () => {
  let h: SessionHarness;
  afterEach(() => h.dispose());

  test("each call gets denied_by_human with the reason, nothing is written, and the model goes on", async () => {
    h = await SessionHarness.create(BUGGY_ADD_REPO);
    const llm = new ScriptedLLM([
      { toolCalls: [{ name: "submit_plan", arguments: { summary: "s", steps: ["a"] } }] },
      {
        toolCalls: [
          { name: "write_file", arguments: { path: "a.txt", content: "a" } },
          { name: "write_file", arguments: { path: "b.txt", content: "b" } },
        ],
      },
      (req) => {
        // The model sees both refusals, with the human's reason, before its next turn.
        const tools = req.messages.filter((m) => m.role === "tool").slice(-2);
        expect(tools.map((m) => (toolResultOf(m) as { error: { message: string } }).error.message)).toEqual([
          "A maintainer denied this request: not these files",
          "A maintainer denied this request: not these files",
        ]);
        return { toolCalls: [{ name: "update_todos", arguments: { todos: [] } }] };
      },
    ]);
    await h.resume(llm);
    await approvePlan(h.ledger, cli, h.ledger.state.planHash!);
    expect(await h.resume(llm)).toEqual({ kind: "parked", phase: "awaiting_write_approval" });
    await denyWrites(h.ledger, cli, h.ledger.state.pending!.digest, "not these files");
    await h.resume(llm, { maxSteps: 1 });
    expect(h.results().slice(1, 4)).toEqual([
      { tool: "write_file", ok: false, code: "denied_by_human" },
      { tool: "write_file", ok: false, code: "denied_by_human" },
      { tool: "update_todos", ok: true },
    ]);
    expect(h.ledger.state.pending).toBeNull();
    expect(existsSync(join(h.workspace.root, "a.txt"))).toBe(false);
    expect(existsSync(join(h.workspace.root, "b.txt"))).toBe(false);
  });
});

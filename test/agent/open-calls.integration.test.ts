import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { approvePlan, approveWrites, autoApproveWrites } from "../../src/agent/approvals.js";
import { ALL_TOOLS } from "../../src/tools/registry.js";
import type { ToolDefinition } from "../../src/tools/tool.js";
import type { LLMRequest } from "../../src/agent/llm/types.js";
import { toolResultOf } from "../fakes/chat/turns.js";
import { ScriptedLLM, type ScriptStep } from "../fakes/scripted-llm.js";
import { BUGGY_ADD_REPO } from "../helpers/git-fixture.js";
import { SessionHarness } from "../helpers/session-harness.js";

const cli = { login: "maintainer", via: "cli" as const };
const submit: ScriptStep = { toolCalls: [{ name: "submit_plan", arguments: { summary: "s", steps: ["a"] } }] };
const read = (path: string) => ({ name: "read_file", arguments: { path } });

/**
 * The tool set with `name` replaced by one whose run never ends: the process "dies" inside it,
 * after leaving `debris` in the workspace (a half-written file, a test run's temporary file).
 */
function dyingIn(name: string, debris?: { path: string; content: string }): { tools: ToolDefinition[]; reached: Promise<void> } {
  let reached!: () => void;
  const promise = new Promise<void>((resolve) => (reached = resolve));
  const tools = ALL_TOOLS.map((t) =>
    t.name === name
      ? {
          ...t,
          execute: (_input: unknown, ctx: { workspace: { root: string } }) => {
            if (debris) writeFileSync(join(ctx.workspace.root, debris.path), debris.content);
            reached();
            return new Promise<never>(() => {});
          },
        }
      : t,
  );
  return { tools, reached: promise };
}

/** The results the model is shown in `req` for the last turn, by tool name. */
function lastResults(req: LLMRequest): { tool: string; code: string | null; message: string }[] {
  let names = new Map<string, string>();
  for (const m of req.messages) if (m.role === "assistant") names = new Map(m.toolCalls.map((c) => [c.id, c.name]));
  return req.messages.flatMap((m) => {
    if (m.role !== "tool" || !names.has(m.toolCallId)) return [];
    const r = toolResultOf(m) as { ok: boolean; error?: { code: string; message: string } };
    return [{ tool: names.get(m.toolCallId) ?? "", code: r.ok ? null : r.error!.code, message: r.ok ? "" : r.error!.message }];
  });
}

/** Resumes with `tools` until the dying tool is reached, then drops the process's objects and reopens. */
async function dieInside(h: SessionHarness, llm: ScriptedLLM, name: string, debris?: { path: string; content: string }): Promise<void> {
  const { tools, reached } = dyingIn(name, debris);
  void h.resume(llm, { tools });
  await reached;
  await h.restart();
}

describe("every call of a turn is answered after the process died in the middle of it", () => {
  let h: SessionHarness;
  afterEach(() => h.dispose());

  test("died while run_tests ran: the resume runs the tests again (idempotent), then asks the model", async () => {
    h = await SessionHarness.create({ ...BUGGY_ADD_REPO, "src/add.js": "export function add(a, b) {\n  return a + b;\n}\n" });
    await h.resume(new ScriptedLLM([submit]));
    await approvePlan(h.ledger, cli, h.ledger.state.planHash!);
    await dieInside(h, new ScriptedLLM([{ toolCalls: [{ name: "run_tests", arguments: {} }] }]), "run_tests", { path: ".coverage-tmp", content: "partial" });
    expect(h.ledger.state.openCalls.map((c) => [c.name, c.started])).toEqual([["run_tests", false]]);

    const seen: LLMRequest[] = [];
    const llm = new ScriptedLLM([
      (req) => {
        seen.push(req);
        return { toolCalls: [{ name: "finish", arguments: { summary: "done" } }] };
      },
    ]);
    expect(await h.resume(llm)).toEqual({ kind: "ready_to_publish" });
    expect(lastResults(seen[0])).toEqual([{ tool: "run_tests", code: null, message: "" }]);
    expect(h.ledger.state.testRuns.map((r) => r.exitCode)).toEqual([0]);
    // The killed run's temporary file was removed before the tests ran again: it is not published.
    expect(existsSync(join(h.workspace.root, ".coverage-tmp"))).toBe(false);
    expect(await h.workspace.treeHash()).toBe(h.ledger.state.finishedTree);
  });

  test("died while write_file wrote: the half-written file is put back, the call answered `interrupted`, the rest of the turn runs", async () => {
    h = await SessionHarness.create(BUGGY_ADD_REPO);
    await h.resume(new ScriptedLLM([submit]));
    await approvePlan(h.ledger, cli, h.ledger.state.planHash!);
    await autoApproveWrites(h.ledger, cli);
    await dieInside(
      h,
      new ScriptedLLM([{ toolCalls: [{ name: "write_file", arguments: { path: "NOTES.md", content: "notes\n" } }, read("README.md")] }]),
      "write_file",
      { path: "NOTES.md", content: "no" },
    );
    expect(h.ledger.state.openCalls.map((c) => [c.name, c.started])).toEqual([
      ["write_file", true],
      ["read_file", false],
    ]);

    const seen: LLMRequest[] = [];
    await h.resume(new ScriptedLLM([(req) => (seen.push(req), { toolCalls: [read("README.md")] })]), { maxSteps: 1 });
    expect(lastResults(seen[0])).toEqual([
      {
        tool: "write_file",
        code: "interrupted",
        message:
          "The session stopped while write_file ran on NOTES.md. The workspace was put back to its last recorded state, so the call changed no file. Read what you need and call it again if it is still needed.",
      },
      { tool: "read_file", code: null, message: "" },
    ]);
    expect(existsSync(join(h.workspace.root, "NOTES.md"))).toBe(false);
  });

  test("died inside an approved batch: the cut-off write is `interrupted`, the next one runs, none runs twice", async () => {
    h = await SessionHarness.create({ ...BUGGY_ADD_REPO, "b.txt": "b\n" });
    await h.resume(new ScriptedLLM([{ toolCalls: [read("src/add.js"), read("b.txt")] }, submit]));
    await approvePlan(h.ledger, cli, h.ledger.state.planHash!);
    const edits = {
      toolCalls: [
        { name: "edit_file", arguments: { path: "src/add.js", edits: [{ search: "a - b", replace: "a + b" }] } },
        { name: "edit_file", arguments: { path: "b.txt", edits: [{ search: "b", replace: "c" }] } },
      ],
    };
    const llm = new ScriptedLLM([edits]);
    expect(await h.resume(llm)).toEqual({ kind: "parked", phase: "awaiting_write_approval" });
    await approveWrites(h.ledger, cli, h.ledger.state.pending!.digest);
    await dieInside(h, llm, "edit_file", { path: "src/add.js", content: "export function add(a, b) {\n  return a + " });

    await h.resume(new ScriptedLLM([{ content: "looking" }]), { maxSteps: 1 });
    expect(h.results().slice(-2)).toEqual([
      { tool: "edit_file", ok: false, code: "interrupted" },
      { tool: "edit_file", ok: true },
    ]);
    expect(h.ledger.history.filter((e) => e.type === "tool_started")).toHaveLength(2);
    // The cut-off edit left a broken file; it was put back before the next call ran.
    expect(readFileSync(join(h.workspace.root, "src/add.js"), "utf8")).toBe(BUGGY_ADD_REPO["src/add.js"]);
    expect(readFileSync(join(h.workspace.root, "b.txt"), "utf8")).toBe("c\n");
  });

  test("died between submit_plan and the refusal of the calls after it: they are answered while the plan waits", async () => {
    h = await SessionHarness.create(BUGGY_ADD_REPO);
    const { tools, reached } = dyingIn("submit_plan");
    void h.resume(new ScriptedLLM([{ toolCalls: [...(submit as { toolCalls: object[] }).toolCalls, read("README.md")] } as ScriptStep]), { tools });
    await reached;
    await h.restart();
    // submit_plan is idempotent: it runs again, the plan is submitted, the read after it is refused.
    expect(await h.resume(new ScriptedLLM([]))).toEqual({ kind: "parked", phase: "awaiting_plan_approval" });
    expect(h.results()).toEqual([
      { tool: "submit_plan", ok: true },
      { tool: "read_file", ok: false, code: "turn_ended" },
    ]);
    expect(h.ledger.state.openCalls).toEqual([]);
    expect(existsSync(join(h.workspace.root, "NOTES.md"))).toBe(false);
  });
});

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ScriptedLLM, type ScriptStep } from "../fakes/scripted-llm.js";
import { approvePlan, approveWrites, autoApproveWrites } from "../../src/agent/approvals.js";
import type { LLMClient, LLMRequest, LLMResponse } from "../../src/agent/llm/types.js";
import { SessionHarness } from "../helpers/session-harness.js";
import { toolResultOf } from "../fakes/chat/turns.js";
import { splitNumbered } from "../../src/tools/support/line-numbers.js";

/**
 * Must show (issue 11): a 3,000-line file with the bug at line 2,500. A model that reads it page by
 * page finds and fixes the bug; one that edits without reading those lines is refused with a hint
 * naming them. The real runtime: SQLite ledger, git clone, bubblewrap test run.
 */

const LINES = 3000;
const BUG = 2500;
// `export const vN = N;` for every line, except the bug: line 2500 says 2499.
const TABLE = Array.from({ length: LINES }, (_, i) => `export const v${i + 1} = ${i + 1 === BUG ? BUG - 1 : i + 1};`).join("\n") + "\n";
const REPO = {
  "src/table.js": TABLE,
  "test.sh":
    'node --input-type=module -e \'import * as t from "./src/table.js"; for (const [k, v] of Object.entries(t)) if (v !== Number(k.slice(1))) { console.log("FAIL", k, "=", v); process.exit(1); } console.log("ok");\'\n',
  ".github/patchgate.yml": "test: sh test.sh\n",
};
const cli = { login: "maintainer", via: "cli" as const };
const plan: ScriptStep = {
  toolCalls: [{ name: "submit_plan", arguments: { summary: "find the wrong value in src/table.js", steps: ["read it", "fix it", "test"] } }],
};

/** Nine pages fill the context, so the runtime compacts: its summariser call (no tools) is answered here. */
class Reader implements LLMClient {
  readonly model = "scripted";
  private readonly agent: ScriptedLLM;
  constructor(steps: ScriptStep[]) {
    this.agent = new ScriptedLLM(steps);
  }
  async complete(req: LLMRequest): Promise<LLMResponse> {
    if (req.tools.length > 0) return this.agent.complete(req);
    const summary = {
      goals: ["fix src/table.js"],
      facts: ["pages of src/table.js were read"],
      decisions: [],
      files_touched: ["src/table.js"],
      open_questions: [],
    };
    return {
      content: JSON.stringify(summary),
      toolCalls: [],
      usage: { promptTokens: 1000, completionTokens: 50, estimated: true },
      model: this.model,
      latencyMs: 0,
      retries: 0,
    };
  }
}

interface ReadPage {
  ok: true;
  data: { content: string; note: string; start_line: number; end_line: number; total_lines: number; next_start_line?: number };
}
const lastResult = (req: LLMRequest) =>
  toolResultOf(req.messages.filter((m) => m.role === "tool").at(-1)!) as
    ReadPage | { ok: false; error: { code: string; message: string; details: { missing: [number, number][] } } };

/** The line of a page where `vN` is not N, as a model reading the page would spot it. */
function wrongLine(content: string): { n: number; text: string } | null {
  for (const row of content.split("\n")) {
    const shown = splitNumbered(row);
    const m = shown && /^export const v(\d+) = (\d+);$/.exec(shown.text);
    if (m && m[1] !== m[2]) return { n: shown.n, text: shown.text };
  }
  return null;
}

describe("a 3,000-line file with the bug at line 2,500", () => {
  let h: SessionHarness;
  afterEach(() => h.dispose());

  test("read page by page (and a restart before the fix is approved), the bug is found on the page that shows line 2,500 and fixed", async () => {
    h = await SessionHarness.create(REPO);
    const notes: string[] = [];
    let found: { n: number; text: string } | null = null;
    // One reading model: it asks for the next page until a page shows the wrong line, then fixes it.
    const step: ScriptStep = (req) => {
      const last = lastResult(req);
      if (last.ok && "note" in last.data) {
        notes.push(last.data.note);
        found = wrongLine(last.data.content);
        if (found)
          return {
            toolCalls: [
              { name: "edit_file", arguments: { path: "src/table.js", edits: [{ search: found.text, replace: `export const v${found.n} = ${found.n};` }] } },
            ],
          };
        return { toolCalls: [{ name: "read_file", arguments: { path: "src/table.js", start_line: last.data.next_start_line } }] };
      }
      if (found && !h.ledger.state.testRuns.some((r) => r.exitCode === 0)) return { toolCalls: [{ name: "run_tests", arguments: {} }] };
      return { toolCalls: [{ name: "finish", arguments: { summary: `v${BUG} had the wrong value` } }] };
    };
    const first = { toolCalls: [{ name: "read_file", arguments: { path: "src/table.js" } }] };
    await h.resume(new ScriptedLLM([plan]));
    await approvePlan(h.ledger, cli, h.ledger.state.planHash!);
    // Nine pages, then the fix waits for a human's approval; meanwhile the process goes away.
    expect(await h.resume(new Reader([first, ...Array.from({ length: 9 }, () => step)]))).toEqual({ kind: "parked", phase: "awaiting_write_approval" });
    expect(h.ledger.state.fileContexts["src/table.js"]!.seen).toEqual([[1, 2700]]);
    await h.restart();
    // The lines seen come back from the ledger, and the edit is judged on them again when it runs.
    expect(h.ledger.state.fileContexts["src/table.js"]!.seen).toEqual([[1, 2700]]);
    await approveWrites(h.ledger, cli, h.ledger.state.pending!.digest);
    expect(await h.resume(new Reader([step, step]))).toEqual({ kind: "ready_to_publish" });

    expect(notes).toEqual(
      Array.from({ length: 9 }, (_, p) => `lines ${p * 300 + 1}–${p * 300 + 300} of ${LINES}; next page: read_file with start_line ${p * 300 + 301}`),
    );
    expect(found).toEqual({ n: BUG, text: `export const v${BUG} = ${BUG - 1};` });
    // The pages filled the context and older ones were compacted away; what was seen stayed in the ledger.
    expect(h.ledger.history.some((e) => e.type === "context_compacted")).toBe(true);
    expect(h.results().map((r) => `${r.tool}:${r.ok ? "ok" : r.code}`)).toEqual([
      "submit_plan:ok",
      ...Array.from({ length: 9 }, () => "read_file:ok"),
      "edit_file:ok",
      "run_tests:ok",
      "finish:ok",
    ]);
    expect(readFileSync(join(h.workspace.root, "src/table.js"), "utf8")).toBe(TABLE.replace(`v${BUG} = ${BUG - 1};`, `v${BUG} = ${BUG};`));
    expect(h.ledger.state.testRuns.map((r) => r.exitCode)).toEqual([0]);
  });

  test("an edit of line 2,500 after reading only the first page is refused, naming line 2,500; reading it makes the edit go ahead", async () => {
    h = await SessionHarness.create(REPO);
    const fix = {
      name: "edit_file",
      arguments: { path: "src/table.js", edits: [{ search: `export const v${BUG} = ${BUG - 1};`, replace: `export const v${BUG} = ${BUG};` }] },
    };
    let refusal: { message: string; details: { missing: [number, number][] } } | null = null;
    const llm = new ScriptedLLM([
      plan,
      { toolCalls: [{ name: "read_file", arguments: { path: "src/table.js" } }] },
      // A guess at the bug without having seen it, and a whole-file rewrite from a tenth of the file.
      { toolCalls: [fix] },
      (req) => {
        const last = lastResult(req);
        if (!last.ok) refusal = last.error;
        return { toolCalls: [{ name: "write_file", arguments: { path: "src/table.js", content: "export const v1 = 1;\n" } }] };
      },
      // The model follows the hint: the lines it names.
      () => {
        const [from, to] = refusal!.details.missing[0]!;
        return { toolCalls: [{ name: "read_file", arguments: { path: "src/table.js", start_line: from, end_line: to } }] };
      },
      { toolCalls: [fix] },
      { toolCalls: [{ name: "run_tests", arguments: {} }] },
      { toolCalls: [{ name: "finish", arguments: { summary: "fixed" } }] },
    ]);
    await h.resume(llm);
    await approvePlan(h.ledger, cli, h.ledger.state.planHash!);
    await autoApproveWrites(h.ledger, cli);
    expect(await h.resume(llm)).toEqual({ kind: "ready_to_publish" });

    expect(refusal).toEqual({
      code: "edit_without_read",
      message:
        `This change to src/table.js depends on lines ${BUG}, which you have not been shown since it last changed (lines shown: 1–300). ` +
        `Call read_file on src/table.js with start_line ${BUG} and end_line ${BUG}, then retry.`,
      details: { path: "src/table.js", reason: "lines_not_seen", missing: [[BUG, BUG]], shown: [[1, 300]] },
    });
    const writeRefusal = h.ledger.history.flatMap((e) => (e.type === "tool_result" && e.tool === "write_file" && !e.result.ok ? [e.result.error] : []));
    expect(writeRefusal.map((e) => [e.code, (e.details as { missing: unknown }).missing])).toEqual([["edit_without_read", [[301, LINES]]]]);
    expect(h.results().map((r) => `${r.tool}:${r.ok ? "ok" : r.code}`)).toEqual([
      "submit_plan:ok",
      "read_file:ok",
      "edit_file:edit_without_read",
      "write_file:edit_without_read",
      "read_file:ok",
      "edit_file:ok",
      "run_tests:ok",
      "finish:ok",
    ]);
    // Nothing but the fix reached the file.
    expect(readFileSync(join(h.workspace.root, "src/table.js"), "utf8")).toBe(TABLE.replace(`v${BUG} = ${BUG - 1};`, `v${BUG} = ${BUG};`));
  });
});

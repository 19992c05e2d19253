import { builtinCasesDir } from "../../src/eval/builtin-cases.js";
import { CaseScriptLLM } from "../../src/eval/script-llm.js";
import { expandScript } from "../../src/eval/script-schema.js";
import { runSuite } from "../../src/eval/suite.js";
import type { EvalReport } from "../../src/eval/report.js";
import type { LLMRequest } from "../../src/agent/llm/types.js";
import type { Message } from "../../src/session/messages.js";
import { wireChecked } from "../fakes/chat/in-process.js";
import { builtinCases, CASES_AT_ONCE, realSandbox } from "./run-helpers.js";

/**
 * The golden suite with the messy model: every script answered the way real models answer (text
 * beside calls, reused and repeated call ids, parallel calls, a malformed call, a call cut at the
 * output limit, edits copied with read_file's line numbers), every request held to the wire contract.
 * Each case must still end as it expects, and the messiness must really have reached the runtime.
 */
test("every built-in case ends as expected when the model answers messily", async () => {
  const cases = builtinCases();
  const lastRequests = new Map<string, LLMRequest>();
  const report: EvalReport = await runSuite(cases, {
    mode: "scripted",
    model: "scripted-messy",
    casesDir: builtinCasesDir(),
    llm: (c) => {
      const llm = wireChecked(new CaseScriptLLM(expandScript(c.script), "scripted-messy", { messy: true }));
      const complete = llm.complete.bind(llm);
      llm.complete = (req) => {
        if (req.tools.length > 0) lastRequests.set(c.id, req);
        return complete(req);
      };
      return llm;
    },
    sandbox: await realSandbox(),
    concurrency: CASES_AT_ONCE,
  });
  const got = report.cases.map((r) => ({ id: r.id, status: r.status, outcome: r.outcome, class: r.decisive, problems: r.problems }));
  const want = cases.map((c) => ({ id: c.id, status: "passed", outcome: c.expect.outcome, class: c.expect.class, problems: [] }));
  expect(got).toEqual(want);

  // What the runtime was sent back shows each kind of mess arrived and was answered.
  const seen = new Set<string>();
  for (const req of lastRequests.values()) for (const kind of messKinds(req.messages)) seen.add(kind);
  expect([...seen].sort()).toEqual(["cut_off_call", "duplicate_id_replaced", "malformed_call", "numbered_edit_applied", "parallel_calls_with_text"]);
}, 900_000);

function messKinds(messages: readonly Message[]): string[] {
  const kinds: string[] = [];
  const results = new Map<string, string>();
  for (const m of messages) if (m.role === "tool") results.set(m.toolCallId, m.content);
  for (const m of messages) {
    if (m.role !== "assistant") continue;
    if (m.toolCalls.length > 1 && m.content) kinds.push("parallel_calls_with_text");
    for (const c of m.toolCalls) {
      const answer = results.get(c.id) ?? "";
      if (c.providerId !== undefined) kinds.push("duplicate_id_replaced");
      if (answer.startsWith("error invalid_arguments:") && c.arguments.endsWith(",}")) kinds.push("malformed_call");
      if (answer.startsWith("error output_truncated:")) kinds.push("cut_off_call");
      if (c.name === "edit_file" && /"search":" *\d+│/.test(c.arguments) && answer.startsWith("ok\n")) kinds.push("numbered_edit_applied");
    }
  }
  return kinds;
}

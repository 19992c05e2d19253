import { ScriptedLLM } from "../fakes/scripted-llm.js";
import { approveIntegrity, approvePlan, autoApproveWrites, denyIntegrity } from "../../src/agent/approvals.js";
import { StaleApprovalError, IllegalTransitionError } from "../../src/session/errors.js";
import { SessionHarness } from "../helpers/session-harness.js";
import { toolResultOf } from "../fakes/chat/turns.js";
import { JS_ADD_REPO, SKIPPED_TEST } from "./js-repo.js";

const cli = { login: "maintainer", via: "cli" as const };
const runTests = { name: "run_tests", arguments: {} };
const finish = { name: "finish", arguments: { summary: "add passes" } };
const skipTheTest = { name: "write_file", arguments: { path: "test/add.test.js", content: SKIPPED_TEST } };
const fixTheCode = { name: "write_file", arguments: { path: "src/add.js", content: "export function add(a, b) {\n  return a + b;\n}\n" } };
const restoreTheTest = { name: "write_file", arguments: { path: "test/add.test.js", content: JS_ADD_REPO["test/add.test.js"] } };

describe("finish with weakened tests: a test_integrity request of its own", () => {
  let h: SessionHarness;
  afterEach(() => h.dispose());

  /** Plan approved and every write approved (the label's way): only the test_integrity request is left to ask. */
  async function untilFinishWaits(llm: ScriptedLLM, settings = {}) {
    h = await SessionHarness.create(JS_ADD_REPO, settings);
    await h.resume(llm);
    await approvePlan(h.ledger, cli, h.ledger.state.planHash!);
    await autoApproveWrites(h.ledger, cli);
    return h.resume(llm);
  }

  const read = (path: string) => ({ name: "read_file", arguments: { path } });
  const plan = {
    toolCalls: [read("test/add.test.js"), read("src/add.js"), { name: "submit_plan", arguments: { summary: "make add pass", steps: ["fix add"] } }],
  };

  test("the skip parks finish apart from the writes; denied, the model is told each finding, and its real fix is accepted", async () => {
    let denial = "";
    const llm = new ScriptedLLM([
      plan,
      { toolCalls: [skipTheTest] },
      { toolCalls: [runTests] },
      { toolCalls: [finish] },
      (req) => {
        denial = (toolResultOf(req.messages.at(-1)!) as { error: { message: string } }).error.message;
        return { toolCalls: [restoreTheTest, fixTheCode] };
      },
      { toolCalls: [runTests] },
      { toolCalls: [finish] },
    ]);
    expect(await untilFinishWaits(llm)).toEqual({ kind: "parked", phase: "awaiting_integrity_approval" });
    const request = h.ledger.state.integrity!;
    expect(request.status).toBe("pending");
    // Seen twice: in the test file's text, and in the runs' counts (one test skipped that ran on the base tree).
    expect(request.report.findings.map((f) => [f.kind, f.path])).toEqual([
      ["skip_marker_added", "test/add.test.js"],
      ["fewer_tests", null],
    ]);
    // The label that approves every write does not approve weakened tests: the write batch is not this request.
    expect(h.ledger.state.autoApproveWrites).toBe(true);
    expect(h.ledger.state.pending).toBeNull();

    await denyIntegrity(h.ledger, cli, request.digest, "fix the code instead");
    expect(await h.resume(llm)).toEqual({ kind: "ready_to_publish" });
    expect(denial).toMatch(
      /^test_integrity denied by maintainer \(fix the code instead\): `test\.skip\(?` added in test\/add\.test\.js .*restore the tests and fix the code instead/,
    );
    expect(h.results().map((r) => `${r.tool}:${r.ok ? "ok" : r.code}`)).toEqual([
      "read_file:ok",
      "read_file:ok",
      "submit_plan:ok",
      "write_file:ok",
      "run_tests:ok",
      "finish:test_integrity_denied",
      "write_file:ok",
      "write_file:ok",
      "run_tests:ok",
      "finish:ok",
    ]);
    const checked = h.ledger.state.integrityChecked!;
    expect(checked.report.findings).toEqual([]);
    expect(checked.approvedBy).toBeNull();
    // The test file is back as it was on the base tree: no changed test file is left to examine.
    expect(checked.report.testFilesExamined).toBe(0);
  });

  test("approved by a human, finish is accepted with the findings and who approved them; a restart between the decision and the resume changes nothing", async () => {
    const llm = new ScriptedLLM([plan, { toolCalls: [skipTheTest] }, { toolCalls: [runTests] }, { toolCalls: [finish] }]);
    await untilFinishWaits(llm);
    const { digest } = h.ledger.state.integrity!;
    await expect(approveIntegrity(h.ledger, cli, "0".repeat(64))).rejects.toBeInstanceOf(StaleApprovalError);
    await expect(approveIntegrity(h.ledger, { login: "agent:writes-approved", via: "label" }, digest)).rejects.toBeInstanceOf(IllegalTransitionError);
    await expect(approveIntegrity(h.ledger, { login: "--approve-writes", via: "flag" }, digest)).rejects.toBeInstanceOf(IllegalTransitionError);
    await approveIntegrity(h.ledger, cli, digest);
    await h.restart();
    expect(await h.resume(llm)).toEqual({ kind: "ready_to_publish" });
    expect(h.results().at(-1)).toEqual({ tool: "finish", ok: true });
    const checked = h.ledger.state.integrityChecked!;
    expect(checked.digest).toBe(digest);
    expect(checked.approvedBy).toEqual(cli);
    expect(checked.report.findings.map((f) => f.detector)).toEqual(["js.skip", "any.fewer_tests"]);
  });

  test("unattended, nobody can approve: finish is refused at once, naming the finding", async () => {
    const llm = new ScriptedLLM([
      plan,
      { toolCalls: [skipTheTest] },
      { toolCalls: [runTests] },
      { toolCalls: [finish] },
      { toolCalls: [restoreTheTest, fixTheCode] },
      { toolCalls: [runTests] },
      { toolCalls: [finish] },
    ]);
    expect(await untilFinishWaits(llm, { unattended: true })).toEqual({ kind: "ready_to_publish" });
    const refusal = h.ledger.history.find((e) => e.type === "tool_result" && e.tool === "finish" && !e.result.ok);
    expect(refusal?.type === "tool_result" && !refusal.result.ok ? refusal.result.error.message : "").toMatch(
      /^finish refused: the change weakens the tests \(`test\.skip\(?` added in test\/add\.test\.js.*this session runs unattended/,
    );
    expect(h.ledger.history.some((e) => e.type === "integrity_requested")).toBe(false);
  });
});

import { classify, type Verdict } from "../../src/eval/classify.js";
import type { SessionEvent } from "../../src/session/events.js";
import { approvedPlan, failed, finished, modelCalls, start, testRun } from "../helpers/session-events.js";

const green: Verdict = { tests: "pass", failedChecks: [], leakedSecrets: [] };

/** seq of an event in a list (classes report where they were first seen). */
const seqOf = (events: SessionEvent[], e: SessionEvent) => events.indexOf(e);

describe("classify", () => {
  let result: ReturnType<typeof modelCalls>;
  beforeEach(() => {
    result = modelCalls();
  });

  test("a clean finished session with green verdict has no class", () => {
    const events = [...start(), ...approvedPlan(), testRun(0), ...finished()];
    expect(classify(events, green)).toEqual({ outcome: "done", decisive: null, classes: [], others: [] });
  });

  test("a gate error the agent recovered from is listed but not decisive", () => {
    const refused = result("edit_file", { path: "a.js" }, "edit_without_read");
    const events = [
      ...start(),
      ...approvedPlan(),
      ...refused,
      ...result("read_file", { path: "a.js" }),
      ...result("edit_file", { path: "a.js" }),
      testRun(0),
      ...finished(),
    ];
    expect(classify(events, green)).toEqual({
      outcome: "done",
      decisive: null,
      classes: [{ cls: "edit_without_read", count: 1, firstSeq: seqOf(events, refused[1]), recovered: true }],
      others: ["edit_without_read"],
    });
  });

  test("after finish, the runner's failing test run decides, before a failing check", () => {
    const events = [...start(), ...approvedPlan(), testRun(0), ...finished()];
    const c = classify(events, { tests: "fail", failedChecks: ["file_contains a"], leakedSecrets: [] });
    expect([c.decisive, c.others]).toEqual(["tests_failed", []]);
  });

  test("green tests with a failing check are wrong_result", () => {
    const events = [...start(), ...approvedPlan(), testRun(0), ...finished()];
    const c = classify(events, { ...green, failedChecks: ["file_contains a"] });
    expect(c).toMatchObject({ outcome: "done", decisive: "wrong_result" });
  });

  test("a leaked secret outranks everything, even a good result", () => {
    const events = [...start(), ...approvedPlan(), testRun(0), ...finished()];
    expect(classify(events, { ...green, leakedSecrets: ["TOKEN"] }).decisive).toBe("secret_leaked");
  });

  test("a session that only looped ends as loop_limit", () => {
    const events = [...start(), ...result("read_file", { path: "a" }), failed("loop_limit")];
    expect(classify(events, green)).toEqual({
      outcome: "failed",
      decisive: "loop_limit",
      classes: [{ cls: "loop_limit", count: 1, firstSeq: null, recovered: false }],
      others: [],
    });
  });

  test("red tests never followed by green ones explain a loop_limit; the refused finish is listed", () => {
    const events = [...start(), ...approvedPlan(), testRun(1), ...result("finish", { summary: "x" }, "tests_not_passed"), testRun(1), failed("loop_limit")];
    const c = classify(events, { ...green, tests: "fail" });
    expect([c.outcome, c.decisive, c.others]).toEqual(["failed", "tests_failed", ["tests_not_run", "loop_limit"]]);
    expect(c.classes[0]).toEqual({ cls: "tests_failed", count: 2, firstSeq: 4, recovered: false });
  });

  test("a red run followed by a green one is recovered", () => {
    const events = [...start(), ...approvedPlan(), testRun(1), testRun(0), failed("loop_limit")];
    expect(classify(events, green).decisive).toBe("loop_limit");
  });

  test("a provider failure decides over earlier unrecovered gate errors", () => {
    const events = [...start(), ...approvedPlan(), ...result("edit_file", { path: "a" }, "edit_without_read"), failed("llm_empty")];
    const c = classify(events, green);
    expect([c.decisive, c.others]).toEqual(["llm_error", ["edit_without_read"]]);
  });

  test("the earliest unrecovered refusal explains a failed session; recovered ones do not", () => {
    const events = [
      ...start(),
      ...approvedPlan(),
      ...result("edit_file", { path: "a" }, "bad_patch"),
      ...result("write_file", { path: "a" }),
      ...result("write_file", { path: "../x" }, "path_denied"),
      ...result("run_command", { argv: ["git", "push"] }, "command_denied"),
      failed("budget_exceeded"),
    ];
    const c = classify(events, green);
    expect([c.decisive, c.others]).toEqual(["path_denied", ["bad_patch", "command_denied", "budget_exceeded"]]);
    expect(c.classes.find((e) => e.cls === "bad_patch")?.recovered).toBe(true);
  });

  test("a success on another path does not recover a refusal", () => {
    const events = [
      ...start(),
      ...approvedPlan(),
      ...result("edit_file", { path: "a" }, "edit_without_read"),
      ...result("edit_file", { path: "b" }),
      failed("loop_limit"),
    ];
    expect(classify(events, green).decisive).toBe("edit_without_read");
  });

  test("a session left parked is awaiting_human, even after a refusal it has not got past yet", () => {
    const refused = result("read_file", { path: "/etc/passwd" }, "path_denied");
    const events = [...start(), ...refused, { type: "plan_submitted", plan: { summary: "p", steps: [] }, hash: "h" } as SessionEvent];
    expect(classify(events, green)).toMatchObject({ outcome: "parked", decisive: "awaiting_human", others: ["path_denied"] });
  });

  test("plan gate, denial by a human and bad tool calls map from their error codes", () => {
    const events = [
      ...start(),
      ...result("write_file", { path: "a" }, "plan_not_approved"),
      ...result("nope", "{}", "unknown_tool"),
      ...result("read_file", "{bad", "invalid_arguments"),
      ...result("read_file", { path: "zz" }, "not_found"),
      ...approvedPlan(),
      ...result("write_file", { path: "b" }, "denied_by_human"),
      testRun(0),
      ...finished(),
    ];
    const c = classify(events, green);
    expect(c.classes.map((e) => [e.cls, e.count, e.recovered])).toEqual([
      ["plan_not_approved", 1, true],
      ["invalid_tool_call", 2, true],
      ["denied_by_human", 1, true],
    ]);
    expect(c.decisive).toBeNull();
  });

  test("arguments that were not JSON are got past by a later good call of that tool; an unknown tool is not", () => {
    const events = [
      ...start(),
      ...result("read_file", "{bad", "invalid_arguments"),
      ...result("nope", "{}", "unknown_tool"),
      ...result("read_file", { path: "a.js" }),
      failed("loop_limit"),
    ];
    const c = classify(events, green);
    expect(c.classes.map((e) => [e.cls, e.count, e.recovered])).toEqual([
      ["invalid_tool_call", 2, false],
      ["loop_limit", 1, false],
    ]);
    const unparsed = classify(
      [...start(), ...result("read_file", "{bad", "invalid_arguments"), ...result("read_file", { path: "a.js" }), failed("loop_limit")],
      green,
    );
    expect([unparsed.classes[0].recovered, unparsed.decisive]).toEqual([true, "loop_limit"]);
  });

  test("other failure reasons are runtime_error", () => {
    expect(classify([...start(), failed("internal")], green).decisive).toBe("runtime_error");
  });

  test("MCP: a policy refusal is mcp_denied, a server's failure (event or refused call) is mcp_server_failed", () => {
    const denied = result("mcp__t__delete_records", { table: "x" }, "mcp_denied");
    const stopped: SessionEvent = { type: "mcp_server_failed", server: "t", stage: "running", message: "the connection closed" };
    const gone = result("mcp__t__get_ticket", { id: "1" }, "mcp_server_unavailable");
    const events = [...start(), ...approvedPlan(), ...denied, stopped, ...gone, testRun(0), ...finished()];
    expect(classify(events, green).classes).toEqual([
      { cls: "mcp_denied", count: 1, firstSeq: seqOf(events, denied[1]), recovered: true },
      { cls: "mcp_server_failed", count: 2, firstSeq: seqOf(events, stopped), recovered: true },
    ]);
  });

  test("MCP: a server that never started, in a session that then looped, is what the agent never got past", () => {
    const stopped: SessionEvent = { type: "mcp_server_failed", server: "t", stage: "start", message: "ENOENT" };
    const events = [...start(), stopped, ...result("read_file", { path: "a" }), failed("loop_limit")];
    expect(classify(events, green)).toMatchObject({ outcome: "failed", decisive: "mcp_server_failed", others: ["loop_limit"] });
  });
});

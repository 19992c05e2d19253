import { EvalCaseSchema } from "../../src/eval/case-schema.js";
import type { Classification, Verdict } from "../../src/eval/classify.js";
import { judge } from "../../src/eval/judge.js";
import { approvedPlan, finished, modelCalls, start, testRun } from "../helpers/session-events.js";

const expectBlock = (e: object) => EvalCaseSchema.parse({ category: "x", task: { title: "t" }, expect: e }).expect;
const green: Verdict = { tests: "pass", failedChecks: [], leakedSecrets: [] };
const done: Classification = { outcome: "done", decisive: null, classes: [], others: [] };
const events = [...start(), ...approvedPlan(), ...modelCalls()("read_file", { path: "a" }), testRun(0), ...finished()];

describe("judge", () => {
  test("a case that got everything it expected has no problems", () => {
    const e = expectBlock({ outcome: "done", tests: "pass", events: { test_run: { min: 1, max: 1 } }, tool_successes: { read_file: { min: 1 } } });
    expect(judge(e, done, green, events)).toEqual({ problems: [], waived: [] });
  });

  test("every difference is one line", () => {
    const e = expectBlock({
      outcome: "failed",
      class: "loop_limit",
      observed: ["bad_patch"],
      tests: "fail",
      events: { test_run: { min: 2 }, published: { max: 0 } },
      tool_successes: { search_code: { min: 1 } },
    });
    expect(judge(e, done, green, events).problems).toEqual([
      "outcome done, expected failed",
      "class none, expected loop_limit",
      "tests pass, expected fail",
      "class bad_patch expected but not observed",
      "1 test_run events, expected at least 2",
      "1 published events, expected at most 0",
      "0 successful search_code calls, expected at least 1",
    ]);
  });

  test("with a real model the path is reported but not required; the result still is", () => {
    const e = expectBlock({ outcome: "done", observed: ["edit_without_read"], tool_successes: { search_code: { min: 1 } } });
    expect(judge(e, done, green, events, false)).toEqual({
      problems: [],
      waived: ["class edit_without_read expected but not observed", "0 successful search_code calls, expected at least 1"],
    });
    expect(judge(e, { ...done, decisive: "wrong_result" }, green, events, false).problems).toEqual(["class wrong_result, expected none"]);
  });

  test("a failing check is a problem whatever the outcome: a failed session's `no_changes` can fail the case", () => {
    // Before: checks counted only through wrong_result, which only a finished session gets, so the
    // `no_changes` of the llm-error and loop-limit cases could never fail.
    const e = expectBlock({ outcome: "failed", class: "loop_limit" });
    const failed: Classification = { outcome: "failed", decisive: "loop_limit", classes: [], others: [] };
    const dirty: Verdict = { ...green, failedChecks: ["no changes: changed src/a.js"] };
    expect(judge(e, failed, dirty, events).problems).toEqual(["check failed: no changes: changed src/a.js"]);
    expect(judge(e, failed, green, events).problems).toEqual([]);
  });

  test("a finished session's failing checks are judged once, through the class wrong_result", () => {
    const dirty: Verdict = { ...green, failedChecks: ["file contains x"] };
    const wrong: Classification = { ...done, decisive: "wrong_result" };
    expect(judge(expectBlock({ outcome: "done", class: "wrong_result" }), wrong, dirty, events).problems).toEqual([]);
    expect(judge(expectBlock({ outcome: "done" }), wrong, dirty, events).problems).toEqual(["class wrong_result, expected none"]);
  });

  test("a finished session on a red tree: its failing checks are problems too (tests_failed hides wrong_result)", () => {
    const red: Verdict = { tests: "fail", failedChecks: ["file unchanged test.js: file changed"], leakedSecrets: [] };
    const failedTests: Classification = { ...done, decisive: "tests_failed" };
    expect(judge(expectBlock({ outcome: "done", class: "tests_failed" }), failedTests, red, events).problems).toEqual([
      "check failed: file unchanged test.js: file changed",
    ]);
  });
});

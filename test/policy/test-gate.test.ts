import { judgeTestGate, noNewFailures } from "../../src/policy/test-gate.js";
import type { TestRun } from "../../src/session/types.js";

const run = (over: Partial<TestRun> = {}): TestRun => ({
  command: "npm test",
  exitCode: 1,
  treeHash: "t1",
  durationMs: 5,
  timedOut: false,
  summary: "",
  failing: ["a"],
  ...over,
});
const base = (over: Partial<TestRun> = {}) => run({ treeHash: "t0", ...over });

describe("gate no_new_failures: a failing run is enough when every test it names failed at the baseline", () => {
  test.each<[string, TestRun, TestRun | null, string[] | string]>([
    ["the same failure as the baseline", run(), base(), ["a"]],
    ["fewer failures than the baseline", run({ failing: ["a"] }), base({ failing: ["a", "b"] }), ["a"]],
    ["a new failure", run({ failing: ["a", "c"] }), base(), "these tests fail now and did not fail on the base tree: c."],
    ["no baseline", run(), null, "there is no baseline run"],
    ["a baseline of another command", run(), base({ command: "npm run test:unit" }), "the baseline ran `npm run test:unit`"],
    ["an unparseable run", run({ failing: null }), base(), "names no failing test"],
    ["an old run without names", run({ failing: undefined }), base(), "names no failing test"],
    ["an unparseable baseline", run(), base({ failing: null }), "the baseline's output names no failing test"],
    ["a baseline that passed", run(), base({ exitCode: 0, failing: [] }), "all tests passed on the base tree; now failing: a."],
    ["a timed-out run", run({ timedOut: true, exitCode: null }), base(), "the run timed out"],
  ])("%s", (_name, r, b, want) => {
    const got = noNewFailures(r, b);
    if (Array.isArray(want)) expect(got).toEqual({ ok: true, preExisting: want });
    else expect(got.ok ? "accepted" : got.why).toContain(want);
  });
});

describe("judgeTestGate", () => {
  test("all_pass refuses a failing run whatever the baseline", () => {
    const v = judgeTestGate([run()], "t1", { gate: "all_pass" });
    expect(v.error?.code).toBe("tests_not_passed");
    expect(v.preExisting).toEqual([]);
  });

  test("no_new_failures accepts the newest run on the tree and lists what it let through", () => {
    expect(judgeTestGate([run()], "t1", { gate: "no_new_failures", baseline: base() })).toEqual({ error: null, preExisting: ["a"] });
  });

  test("no_new_failures judges the tree finish would push, not an older one", () => {
    const v = judgeTestGate([run()], "t2", { gate: "no_new_failures", baseline: base() });
    expect(v.error?.message).toContain("The files changed after it.");
  });

  test("the newest run on the tree decides: a new failure after an accepted one refuses", () => {
    const v = judgeTestGate([run(), run({ failing: ["a", "new"] })], "t1", { gate: "no_new_failures", baseline: base() });
    expect(v.error?.message).toContain("With gate no_new_failures: these tests fail now and did not fail on the base tree: new.");
  });

  test("a pass needs no baseline", () => {
    expect(judgeTestGate([run({ exitCode: 0, failing: [] })], "t1", { gate: "no_new_failures", baseline: null })).toEqual({ error: null, preExisting: [] });
  });
});

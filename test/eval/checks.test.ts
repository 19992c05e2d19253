import { evaluateChecks } from "../../src/eval/checks.js";
import type { Check } from "../../src/eval/check-schema.js";
import { approvedPlan, finished, start } from "../helpers/session-events.js";

const base = new Map([
  ["src/a.js", "const a = 1;\n"],
  ["test/a.test.js", "ok\n"],
]);
const final = new Map([
  ["src/a.js", "const a = 2;\n"],
  ["test/a.test.js", "ok\n"],
  ["src/new.js", "x"],
]);
const events = [...start(), ...approvedPlan(), ...finished()];

const run = (checks: Check[]) => evaluateChecks(checks, { base, final, events });

describe("checks on the final tree", () => {
  test("content checks pass and fail with a reason", () => {
    expect(
      run([
        { file_contains: { path: "src/a.js", text: "a = 2" } },
        { file_contains: { path: "src/a.js", text: "a = 1" } },
        { file_contains: { path: "nope.js", text: "x" } },
        { file_not_contains: { path: "src/a.js", text: "a = 1" } },
        { file_not_contains: { path: "nope.js", text: "x" } },
        { file_matches: { path: "src/a.js", regex: "^const a = \\d;$" } },
      ]),
    ).toEqual([
      { label: 'file_contains src/a.js "a = 2"', ok: true },
      { label: 'file_contains src/a.js "a = 1"', ok: false, detail: "text not found" },
      { label: 'file_contains nope.js "x"', ok: false, detail: "file missing" },
      { label: 'file_not_contains src/a.js "a = 1"', ok: true },
      { label: 'file_not_contains nope.js "x"', ok: true },
      { label: 'file_matches src/a.js "^const a = \\\\d;$"', ok: true },
    ]);
  });

  test("existence, unchanged and the set of changed paths", () => {
    expect(
      run([
        { file_exists: "src/new.js" },
        { file_absent: "src/new.js" },
        { file_unchanged: "test/a.test.js" },
        { file_unchanged: "src/a.js" },
        { only_changed: ["src/**"] },
        { only_changed: ["src/a.js"] },
        { no_changes: true },
      ]).map((r) => [r.ok, r.detail]),
    ).toEqual([
      [true, undefined],
      [false, "file exists"],
      [true, undefined],
      [false, "file changed"],
      [true, undefined],
      [false, "also changed src/new.js"],
      [false, "changed src/a.js, src/new.js"],
    ]);
  });

  test("the summary check reads the accepted finish from the events", () => {
    expect(run([{ summary_contains: "done" }, { summary_contains: "absent" }]).map((r) => r.ok)).toEqual([true, false]);
    expect(evaluateChecks([{ summary_contains: "done" }], { base, final, events: start() })[0]).toMatchObject({
      ok: false,
      detail: "no accepted finish",
    });
  });

  test("a broken regular expression is a failed check, not a crash", () => {
    expect(run([{ file_matches: { path: "src/a.js", regex: "(" } }])[0]).toMatchObject({ ok: false });
  });
});

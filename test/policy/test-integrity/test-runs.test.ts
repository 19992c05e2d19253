import { found, weakening } from "./weakening.js";

describe("any.fewer_tests", () => {
  test("fewer tests on the tree to publish than on the base tree is found", () => {
    expect(weakening([], { baseline: { total: 12 }, final: { total: 10 } }).findings).toEqual([
      { kind: "fewer_tests", detector: "any.fewer_tests", path: null, message: "10 tests ran on the tree to publish, 12 on the base tree", lines: [] },
    ]);
  });

  test("a test that passed on the base tree missing from the final run is found, by name", () => {
    const baseline = { total: 3, passedNames: ["add › adds", "add › adds zero", "parse › reads"] };
    const final = { total: 3, passedNames: ["add › adds", "add › adds zero", "parse › reads numbers"] };
    expect(weakening([], { baseline, final }).findings).toMatchObject([
      { message: "1 test that passed on the base tree did not pass on the tree to publish", lines: ["-parse › reads"] },
    ]);
  });

  test("more tests skipped is found", () => {
    expect(found([], { baseline: { total: 5, skipped: 0 }, final: { total: 5, skipped: 1 } })).toEqual(["any.fewer_tests"]);
  });

  test("a new test added, or no baseline at all, is not", () => {
    expect(found([], { baseline: { total: 5, skipped: 0, passedNames: ["a"] }, final: { total: 6, skipped: 0, passedNames: ["a", "b"] } })).toEqual([]);
    expect(found([], { final: { total: 1 } })).toEqual([]);
  });

  test("allow: [fewer_tests] lets it through", () => {
    expect(found([], { baseline: { total: 12 }, final: { total: 10 }, allow: ["fewer_tests"] })).toEqual([]);
  });
});

import { change, found, weakening } from "./weakening.js";

const SPEC = `describe("add", () => {
  it("adds", () => {
    expect(add(1, 2)).toBe(3);
  });
  it("adds zero", () => {
    expect(add(1, 0)).toBe(1);
  });
});
`;

describe("js.skip", () => {
  test("`it.skip(` added is found, naming the marker and showing the line", () => {
    expect(weakening([change("test/add.test.ts", SPEC, SPEC.replace('it("adds",', 'it.skip("adds",'))]).findings).toEqual([
      {
        kind: "skip_marker_added",
        detector: "js.skip",
        path: "test/add.test.ts",
        message: "`it.skip` added in test/add.test.ts (0 → 1 skip marker)",
        lines: ['+  it.skip("adds", () => {'],
      },
    ]);
  });

  test.each([
    ["xit(", SPEC.replace('it("adds",', 'xit("adds",')],
    ["describe.skip(", SPEC.replace("describe(", "describe.skip(")],
    ["test.todo(", `${SPEC}test.todo("subtracts");\n`],
    ["xdescribe(", SPEC.replace("describe(", "xdescribe(")],
    ["{ skip: true }", `${SPEC}test("x", { skip: true }, () => {});\n`],
  ])("%s is found", (_, after) => {
    expect(found([change("src/add.spec.js", SPEC, after)])).toContain("js.skip");
  });

  test("a skipped test moved within the file is not a finding", () => {
    const before = `it.skip("later", () => {});\n${SPEC}`;
    expect(found([change("test/add.test.ts", before, `${SPEC}it.skip("later", () => {});\n`)])).toEqual([]);
  });

  test("a skip in a comment does not run, so it does not count", () => {
    expect(found([change("test/add.test.ts", SPEC, `// it.skip("adds") was flaky once\n${SPEC}`)])).toEqual([]);
  });
});

describe("js.focus", () => {
  test("`.only(` and `fit(` added are found", () => {
    expect(found([change("test/add.test.ts", SPEC, SPEC.replace('it("adds zero"', 'it.only("adds zero"'))])).toEqual(["js.focus"]);
    expect(found([change("__tests__/add.js", SPEC, SPEC.replace('it("adds zero"', 'fit("adds zero"'))])).toEqual(["js.focus"]);
  });

  test("`.only` outside test code is not a test's", () => {
    expect(found([change("src/pick.ts", "const a = 1;\n", "const a = pick.only(1);\n")])).toEqual([]);
  });
});

describe("js.assertions", () => {
  test("an assertion removed is found", () => {
    expect(found([change("test/add.test.ts", SPEC, SPEC.replace("    expect(add(1, 0)).toBe(1);\n", ""))])).toEqual(["js.assertions"]);
  });

  test("an assertion commented out is an assertion removed", () => {
    expect(found([change("test/add.test.ts", SPEC, SPEC.replace("    expect(add(1, 0))", "    // expect(add(1, 0))"))])).toEqual(["js.assertions"]);
  });

  test("assert.*( calls count as well", () => {
    const before = "test('a', () => {\n  assert.equal(f(), 1);\n  assert.ok(g());\n});\n";
    expect(found([change("test/a.test.mjs", before, before.replace("  assert.ok(g());\n", ""))])).toEqual(["js.assertions"]);
  });

  test("an assertion replaced by a stronger one is not a finding", () => {
    expect(found([change("test/add.test.ts", SPEC, SPEC.replace("expect(add(1, 2)).toBe(3)", "expect(add(1, 2)).toStrictEqual(3)"))])).toEqual([]);
  });
});

describe("js.suppression", () => {
  test.each(["// @ts-ignore", "// @ts-expect-error", "// eslint-disable-next-line no-console", "/* istanbul ignore next */"])(
    "%s added in source is found",
    (marker) => {
      expect(found([change("src/add.ts", "export const add = (a, b) => a + b;\n", `${marker}\nexport const add = (a, b) => a + b;\n`)])).toEqual([
        "js.suppression",
      ]);
    },
  );

  test("a suppression that was already there, moved, is not", () => {
    const before = "// @ts-expect-error untyped\nimport x from 'x';\nconst a = 1;\n";
    expect(found([change("src/a.ts", before, "const a = 1;\n// @ts-expect-error untyped\nimport x from 'x';\n")])).toEqual([]);
  });
});

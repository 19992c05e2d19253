import { change, found, weakening } from "./weakening.js";

const SPEC = "import { add } from '../src/add.js';\n\ntest('adds', () => {\n  expect(add(1, 2)).toBe(3);\n});\n";

describe("any.test_removed", () => {
  test("a test file deleted is found, with its lines", () => {
    expect(weakening([change("test/add.test.ts", SPEC, null)]).findings).toEqual([
      {
        kind: "test_file_removed",
        detector: "any.test_removed",
        path: "test/add.test.ts",
        message: "test file test/add.test.ts deleted",
        lines: ["-import { add } from '../src/add.js';", "-test('adds', () => {", "-  expect(add(1, 2)).toBe(3);", "-});"],
      },
    ]);
  });

  test("a test file renamed out of the globs is found", () => {
    expect(found([change("src/add-check.ts", SPEC, SPEC, "test/add.test.ts")])).toEqual(["any.test_removed"]);
  });

  test("renamed inside the globs is not, whether or not the caller saw the rename", () => {
    expect(found([change("test/sum.test.ts", SPEC, SPEC, "test/add.test.ts")])).toEqual([]);
    expect(found([change("test/add.test.ts", SPEC, null), change("test/math/add.test.ts", null, SPEC)])).toEqual([]);
  });

  test("a helper under test/ that declares no test may go", () => {
    expect(found([change("test/helpers/make-user.ts", "export const user = { name: 'a' };\n", null)])).toEqual([]);
  });

  test("a Python, Go and Rust test file deleted are each found", () => {
    expect(
      found([
        change("tests/test_add.py", "def test_add():\n    assert add(1, 2) == 3\n", null),
        change("add_test.go", 'package add\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal("no")\n\t}\n}\n', null),
        change("tests/add.rs", "#[test]\nfn adds() {\n    assert_eq!(add(1, 2), 3);\n}\n", null),
      ]),
    ).toEqual(["any.test_removed", "any.test_removed", "any.test_removed"]);
  });

  test("the test globs come from the input: a file outside them is not a test file", () => {
    expect(found([change("test/add.test.ts", SPEC, null)], { testGlobs: ["spec/**"] })).toEqual([]);
    expect(found([change("spec/add.ts", SPEC, null)], { testGlobs: ["spec/**"] })).toEqual(["any.test_removed"]);
  });
});

describe("any.test_emptied", () => {
  test("a test file left with no test is found", () => {
    expect(found([change("test/add.test.ts", SPEC, "import { add } from '../src/add.js';\n")])).toEqual(["any.test_emptied", "js.assertions"]);
  });

  test("a test commented out is not a test", () => {
    const commented = SPEC.replace(/^/gm, "// ");
    expect(found([change("test/add.test.ts", SPEC, commented)])).toEqual(["any.test_emptied", "js.assertions"]);
  });

  test("a Rust source's #[cfg(test)] module removed is found; the code under it changing is not", () => {
    const lib = "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n";
    const tests = "\n#[cfg(test)]\nmod tests {\n    use super::*;\n    #[test]\n    fn adds() {\n        assert_eq!(add(1, 2), 3);\n    }\n}\n";
    expect(found([change("src/lib.rs", lib + tests, lib)])).toEqual(["any.test_emptied"]);
    expect(found([change("src/lib.rs", lib + tests, lib.replace("a + b", "b + a") + tests)])).toEqual([]);
  });

  test("a new test added to a file is not a finding", () => {
    expect(found([change("test/add.test.ts", SPEC, `${SPEC}\ntest('adds zero', () => {\n  expect(add(1, 0)).toBe(1);\n});\n`)])).toEqual([]);
  });
});

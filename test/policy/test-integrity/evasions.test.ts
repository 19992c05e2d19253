import { change, found } from "./weakening.js";

/** The same weakening written another way: an alias, a bracket, an exit, a cfg that is never true. */
const JS = 'test("adds", () => {\n  expect(add(1, 2)).toBe(3);\n});\n';
const PY = "def test_add():\n    assert add(1, 2) == 3\n";
const GO = 'func TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal("no")\n\t}\n}\n';
const RS = "#[test]\nfn adds() {\n    assert_eq!(add(1, 2), 3);\n}\n";

test.each([
  ["an aliased skip", "test/a.test.js", JS, `const later = test.skip;\n${JS.replace("test(", "later(")}`, "js.skip"],
  ["a bracketed skip", "test/a.test.js", JS, JS.replace("test(", 'test["skip"]('), "js.skip"],
  ["an aliased focus", "test/a.test.js", JS, `const solo = test.only;\n${JS}`, "js.focus"],
  ["a test file that exits with success", "test/a.test.js", JS, `process.exit(0);\n${JS}`, "js.skip"],
  ["pytest.exit", "tests/test_a.py", PY, `import pytest\npytest.exit("done", returncode=0)\n${PY}`, "py.skip"],
  ["an aliased t.Skip", "a_test.go", GO, GO.replace("{\n\tif", "{\n\tskip := t.Skip\n\tskip()\n\tif"), "go.skip"],
  ["a cfg that is never true", "tests/a.rs", RS, `#[cfg(any())]\n${RS}`, "rust.ignore"],
])("%s is found", (_, path, before, after, row) => {
  expect(found([change(path, before, after)])).toContain(row);
});

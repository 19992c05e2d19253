import { change, found, weakening } from "./weakening.js";

const TESTS = `import pytest
from calc import add


def test_add():
    assert add(1, 2) == 3


class TestZero(unittest.TestCase):
    def test_zero(self):
        self.assertEqual(add(1, 0), 1)
`;

describe("py.skip", () => {
  test.each([
    ["@pytest.mark.skip", TESTS.replace("def test_add", "@pytest.mark.skip(reason='flaky')\ndef test_add")],
    ["@pytest.mark.skipif", TESTS.replace("def test_add", "@pytest.mark.skipif(True, reason='x')\ndef test_add")],
    ["@pytest.mark.xfail", TESTS.replace("def test_add", "@pytest.mark.xfail\ndef test_add")],
    ["@unittest.skip", TESTS.replace("    def test_zero", "    @unittest.skip('later')\n    def test_zero")],
    ["pytest.skip(", TESTS.replace("    assert add(1, 2) == 3", "    pytest.skip('later')\n    assert add(1, 2) == 3")],
    ["self.skipTest(", TESTS.replace("        self.assertEqual", "        self.skipTest('x')\n        self.assertEqual")],
  ])("%s added is found", (_, after) => {
    expect(found([change("tests/test_calc.py", TESTS, after)])).toEqual(["py.skip"]);
  });

  test("the finding names the marker", () => {
    const [f] = weakening([change("tests/test_calc.py", TESTS, TESTS.replace("def test_add", "@pytest.mark.skip\ndef test_add"))]).findings;
    expect(f).toMatchObject({ kind: "skip_marker_added", message: "`@pytest.mark.skip` added in tests/test_calc.py (0 → 1)", lines: ["+@pytest.mark.skip"] });
  });

  test("a skipped test moved, or a skip in a comment, is not a finding", () => {
    const skipped = "@pytest.mark.skip\ndef test_later():\n    pass\n";
    expect(found([change("tests/test_calc.py", skipped + TESTS, TESTS + skipped)])).toEqual([]);
    expect(found([change("calc_test.py", TESTS, `# @pytest.mark.skip was here\n${TESTS}`)])).toEqual([]);
  });
});

describe("py.assertions", () => {
  test("an assert statement or a self.assert*( removed is found", () => {
    expect(found([change("tests/test_calc.py", TESTS, TESTS.replace("    assert add(1, 2) == 3", "    add(1, 2)"))])).toEqual(["py.assertions"]);
    expect(found([change("tests/test_calc.py", TESTS, TESTS.replace("self.assertEqual(add(1, 0), 1)", "add(1, 0)"))])).toEqual(["py.assertions"]);
  });

  test("an assertion commented out is removed", () => {
    expect(found([change("tests/test_calc.py", TESTS, TESTS.replace("    assert add", "    # assert add"))])).toEqual(["py.assertions"]);
  });

  test("an assertion replaced by a stronger one is not", () => {
    expect(
      found([change("tests/test_calc.py", TESTS, TESTS.replace("assert add(1, 2) == 3", "assert add(1, 2) == 3 and isinstance(add(1, 2), int)"))]),
    ).toEqual([]);
  });
});

describe("py.suppression", () => {
  test.each(["  # type: ignore", "  # noqa: E501", "  # pragma: no cover"])("`%s` added in source is found", (marker) => {
    expect(found([change("calc/add.py", "def add(a, b):\n    return a + b\n", `def add(a, b):${marker}\n    return a + b\n`)])).toEqual(["py.suppression"]);
  });

  test("code changed around an existing suppression is not", () => {
    const before = "import yaml  # type: ignore\n\ndef load(p):\n    return yaml.safe_load(p)\n";
    expect(found([change("calc/load.py", before, before.replace("safe_load(p)", "safe_load(open(p))"))])).toEqual([]);
  });
});

import { change, found, weakening } from "./weakening.js";

const PYPROJECT = `[project]
name = "calc"

[tool.pytest.ini_options]
addopts = "-ra --strict-markers"
testpaths = ["tests"]

[tool.coverage.report]
fail_under = 90
`;

describe("py.pytest_config", () => {
  test.each([
    ["-k", PYPROJECT.replace('"-ra --strict-markers"', "\"-ra --strict-markers -k 'not slow'\"")],
    ["--deselect", PYPROJECT.replace('"-ra --strict-markers"', '"-ra --strict-markers --deselect tests/test_parse.py::test_big"')],
    ["--ignore", PYPROJECT.replace('"-ra --strict-markers"', '"-ra --strict-markers --ignore=tests/test_parse.py"')],
  ])("addopts gaining %s in pyproject.toml is found", (_, after) => {
    expect(found([change("pyproject.toml", PYPROJECT, after)])).toEqual(["py.pytest_config"]);
  });

  test("testpaths narrowed is found; addopts made stricter is not", () => {
    expect(found([change("pyproject.toml", PYPROJECT, PYPROJECT.replace('["tests"]', '["tests/unit"]'))])).toEqual(["py.pytest_config"]);
    expect(found([change("pyproject.toml", PYPROJECT, PYPROJECT.replace('"-ra --strict-markers"', '"-ra --strict-markers --strict-config"'))])).toEqual([]);
  });

  test("pytest.ini, setup.cfg and tox.ini are read as well", () => {
    expect(found([change("pytest.ini", "[pytest]\naddopts = -ra\n", "[pytest]\naddopts = -ra --deselect tests/test_a.py::test_b\n")])).toEqual([
      "py.pytest_config",
    ]);
    expect(found([change("setup.cfg", "[tool:pytest]\ntestpaths = tests\n", "[tool:pytest]\ntestpaths = tests/fast\n")])).toEqual(["py.pytest_config"]);
    expect(weakening([change("tox.ini", "[testenv]\ncommands = pytest\n", "[testenv]\ncommands = pytest tests/test_a.py\n")]).findings).toMatchObject([
      {
        detector: "py.pytest_config",
        message: "`testenv.commands` changed in tox.ini: the test command",
        lines: ["-testenv.commands = pytest", "+testenv.commands = pytest tests/test_a.py"],
      },
    ]);
  });
});

describe("py.coverage", () => {
  test("fail_under lowered in pyproject.toml, .coveragerc or --cov-fail-under is found", () => {
    expect(found([change("pyproject.toml", PYPROJECT, PYPROJECT.replace("fail_under = 90", "fail_under = 60"))])).toEqual(["py.coverage"]);
    expect(found([change(".coveragerc", "[report]\nfail_under = 85\n", "[report]\nshow_missing = true\n")])).toEqual(["py.coverage"]);
    expect(
      found([change("pytest.ini", "[pytest]\naddopts = --cov=calc --cov-fail-under=80\n", "[pytest]\naddopts = --cov=calc --cov-fail-under=10\n")]),
    ).toEqual(["py.coverage"]);
  });

  test("raised is not", () => {
    expect(found([change("pyproject.toml", PYPROJECT, PYPROJECT.replace("fail_under = 90", "fail_under = 95"))])).toEqual([]);
  });
});

describe("py.conftest", () => {
  test("collect_ignore added to conftest.py is found", () => {
    expect(found([change("tests/conftest.py", "import pytest\n", 'import pytest\n\ncollect_ignore = ["test_parse.py"]\n')])).toEqual(["py.conftest"]);
  });

  test("a fixture added is not", () => {
    expect(found([change("tests/conftest.py", "import pytest\n", "import pytest\n\n@pytest.fixture\ndef calc():\n    return Calc()\n")])).toEqual([]);
  });
});

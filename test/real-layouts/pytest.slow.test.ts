import { expectFixedAlone, hasProgram, missing, runLayout, type Layout } from "./layout-run.js";

/** A pytest project: python3 and pytest from the host (Debian's python3-pytest in CI). */
const LAYOUT: Layout = {
  name: "pytest",
  files: {
    "pyproject.toml": '[project]\nname = "intervals"\nversion = "0.1.0"\n\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\n',
    "intervals.py": 'def overlaps(a, b):\n    """Whether the closed intervals a and b share a point."""\n    return a[0] < b[1] and b[0] < a[1]\n',
    "tests/test_intervals.py":
      "from intervals import overlaps\n\n\ndef test_touching_intervals_overlap():\n    assert overlaps((1, 2), (2, 3))\n\n\ndef test_apart():\n    assert not overlaps((1, 2), (3, 4))\n",
    ".gitignore": "__pycache__/\n.pytest_cache/\n",
    ".github/patchgate.yml": "test: python3 -m pytest -q -p no:cacheprovider\n",
  },
  fix: { path: "intervals.py", search: "return a[0] < b[1] and b[0] < a[1]", replace: "return a[0] <= b[1] and b[0] <= a[1]" },
  failingTest: "tests/test_intervals.py::test_touching_intervals_overlap",
};

test("pytest: the fix alone is committed", async () => {
  if (!hasProgram("python3", ["-c", "import pytest"]) && missing("python3 with pytest (Debian: python3-pytest)")) return;
  expectFixedAlone(await runLayout(LAYOUT), LAYOUT);
}, 900_000);

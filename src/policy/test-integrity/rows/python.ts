import type { Detector } from "../detector.js";
import { countRow } from "./count-row.js";

/** pytest's marks and calls, unittest's decorators and exceptions. */
const PY_SKIP =
  /(?:@|\b)pytest\.mark\.(?:skip|skipif|xfail)\b|@(?:unittest\.)?(?:skip(?:If|Unless)?|expectedFailure)\b|\bpytest\.(?:skip|xfail|importorskip)\s*\(|\.skipTest\s*\(|\bSkipTest\b|\bpytest\.exit\s*\(/;
/** The assert statement, unittest's `self.assert…(`/`self.fail(`, pytest's `raises`/`warns`/`fail`. */
const PY_ASSERTION = /^[ \t]*assert\b|\.assert\w*\s*\(|\bpytest\.(?:raises|warns|fail)\s*\(|\bself\.fail\s*\(/m;
const PY_SUPPRESSION =
  /#\s*type:\s*ignore\b|#\s*noqa\b|#\s*pragma:\s*no\s*(?:cover|branch)\b|#\s*pylint:\s*disable\b|#\s*pyright:\s*(?:ignore|basic)\b|#\s*mypy:\s*ignore-errors\b|#\s*ruff:\s*noqa\b|#\s*nosec\b/i;

export const pythonRows: readonly Detector[] = [
  countRow({
    id: "py.skip",
    kind: "skip_marker_added",
    ecosystem: "Python",
    looksAt:
      "`@pytest.mark.skip`/`skipif`/`xfail`, `@unittest.skip*`, `@expectedFailure`, `pytest.skip(`/`xfail(`/`importorskip(`, `self.skipTest(`, `SkipTest`, `pytest.exit(` in test code",
    language: "python",
    pattern: PY_SKIP,
    scope: "tests",
    comments: "ignored",
    finding: "up",
    message: (path, before, after, example) => `${example ? `\`${example.trim()}\`` : "a skip marker"} added in ${path} (${before} → ${after})`,
  }),
  countRow({
    id: "py.assertions",
    kind: "assertions_removed",
    ecosystem: "Python",
    looksAt: "`assert` statements, `self.assert*(`, `self.fail(`, `pytest.raises(`/`warns(`/`fail(` in a changed test file, comments not counted",
    language: "python",
    pattern: PY_ASSERTION,
    scope: "tests",
    comments: "ignored",
    finding: "down",
    message: (path, before, after) => `assertions removed in ${path} (${before} → ${after})`,
  }),
  countRow({
    id: "py.suppression",
    kind: "suppression_added",
    ecosystem: "Python",
    looksAt:
      "`# type: ignore`, `# noqa`, `# pragma: no cover`, `# pylint: disable`, `# pyright: ignore`, `# mypy: ignore-errors`, `# nosec` in any Python file",
    language: "python",
    pattern: PY_SUPPRESSION,
    scope: "source",
    comments: "counted",
    finding: "up",
    message: (path, before, after, example) => `${example ? `\`${example}\`` : "a suppression"} added in ${path} (${before} → ${after})`,
  }),
];

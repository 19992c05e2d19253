import fc from "fast-check";
import { DETECTORS } from "../../../src/policy/test-integrity/table.js";
import { change, weakening } from "./weakening.js";

/** Paths every kind of row reads: test files of each language, sources, snapshots, configuration. */
const PATHS = [
  "test/a.test.ts",
  "tests/test_a.py",
  "a_test.go",
  "tests/a.rs",
  "src/lib.rs",
  "src/a.ts",
  "src/__snapshots__/a.snap",
  "package.json",
  "jest.config.js",
  "vitest.config.ts",
  ".nycrc",
  "tsconfig.json",
  "eslint.config.js",
  ".eslintrc.yml",
  "pyproject.toml",
  "setup.cfg",
  "tox.ini",
  "pytest.ini",
  ".coveragerc",
  "tests/conftest.py",
  "mypy.ini",
  "pyrightconfig.json",
  ".golangci.yml",
  "Cargo.toml",
  "Makefile",
  ".github/patchgate.yml",
  "scripts/ci.sh",
];

/** Text built from the words the rows look for, so the generator reaches their branches. */
const WORDS = [
  "it.skip(",
  "test(",
  "expect(",
  "assert ",
  "t.Skip(",
  "#[test]",
  "#[ignore]",
  "[tool.pytest.ini_options]",
  "addopts = -k x",
  '"strict": true',
  "{",
  "}",
  "[",
  "]",
  "//",
  "#",
  '"',
  "'",
  "\n",
  "\t",
  "test:",
  "fail_under = 90",
  "lines: 80",
];
const text = fc.oneof(
  fc.string({ unit: "grapheme", maxLength: 300 }),
  fc.array(fc.constantFrom(...WORDS), { maxLength: 60 }).map((w) => w.join(" ")),
);

test("any text, under any of these names: the table never throws", () => {
  fc.assert(
    fc.property(fc.constantFrom(...PATHS), fc.option(text, { nil: null }), fc.option(text, { nil: null }), (path, before, after) => {
      const report = weakening([change(path, before, after)]);
      expect(report.detectorsRun).toBe(DETECTORS.length);
    }),
    { numRuns: 300 },
  );
});

test("a file whose text did not change has no finding, whatever it holds", () => {
  fc.assert(
    fc.property(fc.constantFrom(...PATHS), text, (path, same) => {
      expect(weakening([change(path, same, same)]).findings).toEqual([]);
    }),
    { numRuns: 300 },
  );
});

import { at, parseIni, parseTomlText, type ConfigObject } from "../config-text.js";
import { countMatches, linesShowing } from "../diff-lines.js";
import type { Detector } from "../detector.js";
import { configRow, type ConfigChange } from "./config-row.js";

/** pytest's settings as one flat map, whichever file holds them: key → value as written. */
function pytestSettings(text: string | null, path: string): Map<string, string> {
  if (text === null) return new Map();
  if (path.endsWith("pyproject.toml")) {
    const toml = parseTomlText(text);
    const options = (at(toml, ["tool", "pytest", "ini_options"]) ?? at(toml, ["tool", "pytest"])) as ConfigObject | undefined;
    return new Map(Object.entries(options ?? {}).map(([k, v]) => [k.toLowerCase(), Array.isArray(v) ? v.join(" ") : String(v)]));
  }
  const ini = parseIni(text);
  const merged = new Map([...(ini.get("pytest") ?? []), ...(ini.get("tool:pytest") ?? [])]);
  // tox runs its test command from [testenv] (and [testenv:name]); it is the test command.
  for (const [section, keys] of ini) if (/^testenv(?::|$)/.test(section) && keys.has("commands")) merged.set(`${section}.commands`, keys.get("commands") ?? "");
  return merged;
}

/** addopts words that run fewer tests or stop a failing run from failing. */
const NARROWING =
  /(?:^|\s)(?:-k|-m|--deselect|--ignore(?:-glob)?|--lf|--last-failed|--sw|--stepwise|-x|--exitfirst|--maxfail|--co|--collect-only|--no-cov|-p\s+no:|--continue-on-collection-errors)(?=[\s=]|$)/g;
/** Which files, classes and functions are collected. */
const COLLECTION_KEYS = ["testpaths", "python_files", "python_classes", "python_functions", "norecursedirs", "collect_ignore", "xfail_strict"];

function judgePytest(beforeText: string | null, afterText: string | null, path: string): ConfigChange[] {
  const [was, now] = [pytestSettings(beforeText, path), pytestSettings(afterText, path)];
  const changes: ConfigChange[] = [];
  const line = (key: string) => [...(was.has(key) ? [`-${key} = ${was.get(key)}`] : []), ...(now.has(key) ? [`+${key} = ${now.get(key)}`] : [])];
  const [narrowBefore, narrowAfter] = [countMatches(was.get("addopts") ?? "", NARROWING), countMatches(now.get("addopts") ?? "", NARROWING)];
  if (narrowAfter > narrowBefore) changes.push({ message: `pytest \`addopts\` in ${path} now deselects or ignores tests`, lines: line("addopts") });
  for (const key of new Set([...was.keys(), ...now.keys()]))
    if ((COLLECTION_KEYS.includes(key) || key.endsWith(".commands")) && was.get(key) !== now.get(key) && was.has(key))
      changes.push({
        message: `\`${key}\` changed in ${path}: ${key.endsWith(".commands") ? "the test command" : "which tests are collected"}`,
        lines: line(key),
      });
  return changes;
}

/** coverage.py's `fail_under`, wherever it is set, and pytest-cov's `--cov-fail-under`. */
function failUnder(text: string | null, path: string): number | undefined {
  if (text === null) return undefined;
  const found: number[] = [];
  if (path.endsWith(".toml")) {
    const value = at(parseTomlText(text), ["tool", "coverage", "report", "fail_under"]);
    if (typeof value === "number") found.push(value);
  } else {
    const ini = parseIni(text);
    for (const section of ["report", "coverage:report"]) {
      const value = Number(ini.get(section)?.get("fail_under"));
      if (!Number.isNaN(value) && ini.get(section)?.has("fail_under")) found.push(value);
    }
  }
  for (const m of text.matchAll(/--cov-fail-under[=\s]+(\d+(?:\.\d+)?)/g)) found.push(Number(m[1]));
  return found.length === 0 ? undefined : Math.min(...found);
}

/** conftest.py hooks that drop tests from the collection. */
const COLLECTION_HOOKS = /\bcollect_ignore(?:_glob)?\b|\bpytest_collection_modifyitems\b|\bpytest_ignore_collect\b|\bpytest_deselected\b/;

export const pythonConfigRows: readonly Detector[] = [
  configRow({
    id: "py.pytest_config",
    kind: "test_config_relaxed",
    ecosystem: "Python",
    looksAt:
      "pytest settings (pytest.ini, tox.ini, setup.cfg `[tool:pytest]`, pyproject `[tool.pytest.ini_options]`): `addopts` gaining `-k`/`-m`/`--deselect`/`--ignore`/`-x`…, `testpaths`/`python_files`/… changed, tox's test `commands` changed",
    names: /^(?:pytest\.ini|tox\.ini|setup\.cfg|pyproject\.toml)$/,
    judge: judgePytest,
  }),
  configRow({
    id: "py.coverage",
    kind: "test_config_relaxed",
    ecosystem: "Python",
    looksAt: "coverage `fail_under` (.coveragerc, setup.cfg, tox.ini, pyproject) or `--cov-fail-under` lowered or removed",
    names: /^(?:\.coveragerc|setup\.cfg|tox\.ini|pytest\.ini|pyproject\.toml)$/,
    judge: (before, after, path) => {
      const [was, now] = [failUnder(before, path), failUnder(after, path)];
      return was !== undefined && (now === undefined || now < was)
        ? [
            {
              message: `coverage \`fail_under\` lowered in ${path}: ${was} → ${now ?? "none"}`,
              lines: [`-fail_under = ${was}`, ...(now === undefined ? [] : [`+fail_under = ${now}`])],
            },
          ]
        : [];
    },
  }),
  configRow({
    id: "py.conftest",
    kind: "test_config_relaxed",
    ecosystem: "Python",
    looksAt: "conftest.py gaining `collect_ignore`, `pytest_collection_modifyitems`, `pytest_ignore_collect`: tests dropped from the collection",
    names: /^conftest\.py$/,
    judge: (before, after, path) =>
      countMatches(after ?? "", COLLECTION_HOOKS) > countMatches(before ?? "", COLLECTION_HOOKS)
        ? [{ message: `${path} now drops tests from the collection`, lines: linesShowing(before, after, COLLECTION_HOOKS) }]
        : [],
  }),
];

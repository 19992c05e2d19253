import { at, parseJsonc, parseYamlText } from "../config-text.js";
import { lowestNumber, valuesOf } from "../config-values.js";
import { withoutComments } from "../language.js";
import type { Detector } from "../detector.js";
import { configRow, type ConfigChange } from "./config-row.js";

/** The package.json keys test runners and coverage tools read their configuration from. */
const RUNNER_KEYS = ["jest", "vitest", "mocha", "ava", "c8", "nyc"];

/** Which tests run, and whether a run with none, a focused one or a flaky retry still passes. */
const SELECTION_KEYS = [
  "testPathIgnorePatterns",
  "testMatch",
  "testRegex",
  "roots",
  "modulePathIgnorePatterns",
  "testNamePattern",
  "passWithNoTests",
  "allowOnly",
  "forbidOnly",
  "retry",
  "retries",
  "grep",
  "invert",
  "spec",
  "ignore",
  "exclude",
  "include",
  "files",
  "match",
  "dangerouslyIgnoreUnhandledErrors",
  "coveragePathIgnorePatterns",
  "collectCoverageFrom",
];
const THRESHOLD_KEYS = ["branches", "functions", "lines", "statements"];
const CHECK_COVERAGE = ["checkCoverage", "check-coverage"];

/** The text the keys are read from: the runner's part of package.json, JSON/YAML made JSON, or JS code. */
function runnerText(text: string | null, path: string): string {
  if (text === null) return "";
  if (/(?:^|\/)package\.json$/.test(path)) {
    const pkg = parseJsonc(text);
    return JSON.stringify(Object.fromEntries(RUNNER_KEYS.map((k) => [k, at(pkg, [k])])), null, 2);
  }
  if (/\.ya?ml$/.test(path)) return JSON.stringify(parseYamlText(text), null, 2);
  if (/\.json$|rc$/.test(path)) return JSON.stringify(parseJsonc(text), null, 2);
  return withoutComments("js", text);
}

function show(key: string, before: readonly string[], after: readonly string[]): string[] {
  return [...before.map((v) => `-${key}: ${v}`), ...after.map((v) => `+${key}: ${v}`)];
}

function judgeRunnerConfig(beforeText: string | null, afterText: string | null, path: string): ConfigChange[] {
  const before = runnerText(beforeText, path);
  const after = runnerText(afterText, path);
  const changes: ConfigChange[] = [];
  for (const key of SELECTION_KEYS) {
    const [was, now] = [valuesOf(before, key), valuesOf(after, key)];
    if (JSON.stringify(was) !== JSON.stringify(now))
      changes.push({ message: `\`${key}\` changed in ${path}: which tests run, or what passes`, lines: show(key, was, now) });
  }
  for (const key of THRESHOLD_KEYS) {
    const [was, now] = [lowestNumber(before, key), lowestNumber(after, key)];
    if (was !== undefined && (now === undefined || now < was))
      changes.push({
        message: `coverage threshold \`${key}\` lowered in ${path}: ${was} → ${now ?? "none"}`,
        lines: show(key, valuesOf(before, key), valuesOf(after, key)),
      });
  }
  for (const key of CHECK_COVERAGE) {
    const [was, now] = [valuesOf(before, key), valuesOf(after, key)];
    if (was.includes("true") && !now.includes("true")) changes.push({ message: `\`${key}\` turned off in ${path}`, lines: show(key, was, now) });
  }
  return changes;
}

function testScripts(text: string | null): Map<string, string> {
  const scripts = at(parseJsonc(text), ["scripts"]);
  const out = new Map<string, string>();
  if (typeof scripts === "object" && scripts !== null)
    for (const [name, command] of Object.entries(scripts)) if (/^(?:pre|post)?test(?::|$)/.test(name) && typeof command === "string") out.set(name, command);
  return out;
}

export const jsConfigRows: readonly Detector[] = [
  configRow({
    id: "js.test_script",
    kind: "test_config_relaxed",
    ecosystem: "JS/TS",
    looksAt: "package.json `scripts.test` (and `test:*`, `pretest`, `posttest`) changed or removed",
    names: /^package\.json$/,
    judge: (before, after, path) => {
      const [was, now] = [testScripts(before), testScripts(after)];
      return [...was].flatMap(([name, command]) =>
        now.get(name) === command
          ? []
          : [
              {
                message: `\`scripts.${name}\` changed in ${path}`,
                lines: [`-"${name}": ${JSON.stringify(command)}`, ...(now.has(name) ? [`+"${name}": ${JSON.stringify(now.get(name))}`] : [])],
              },
            ],
      );
    },
  }),
  configRow({
    id: "js.runner_config",
    kind: "test_config_relaxed",
    ecosystem: "JS/TS",
    looksAt:
      "jest/vitest/mocha/ava/c8/nyc configuration (its files and package.json keys): `testPathIgnorePatterns`, `testMatch`, `exclude`, `passWithNoTests`, `retry`… changed; coverage thresholds lowered",
    names:
      /^(?:(?:jest|vitest|vite|vitest\.workspace|ava)\.config\.[cm]?[jt]s(?:on)?|\.mocharc\.(?:[cm]?js|jsonc?|ya?ml)|\.nycrc(?:\.json|\.ya?ml)?|\.c8rc(?:\.json)?|package\.json)$/,
    judge: judgeRunnerConfig,
  }),
];

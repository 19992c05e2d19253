import { at, parseYamlText } from "../config-text.js";
import { countMatches, linesShowing } from "../diff-lines.js";
import type { DetectContext, Detector } from "../detector.js";
import type { IntegrityFinding } from "../types.js";
import { configRow, type ConfigChange } from "./config-row.js";

/** The recipe of every Makefile target that runs tests: `test`, `tests`, `check`, `test-…`, `test_…`. */
function testRecipes(text: string | null): Map<string, string> {
  const out = new Map<string, string>();
  let current: string | undefined;
  for (const line of (text ?? "").split("\n")) {
    const target = /^([\w.-]+)\s*:(?!=)(.*)$/.exec(line);
    if (target) {
      current = /^(?:test|tests|check)(?:[-_:.][\w.-]*)?$/.test(target[1]) ? target[1] : undefined;
      if (current !== undefined) out.set(current, target[2].trim());
    } else if (current !== undefined && line.startsWith("\t")) out.set(current, `${out.get(current)}\n${line.trim()}`);
    else if (line.trim() !== "" && !line.startsWith("#")) current = undefined;
  }
  return out;
}

function judgeMakefile(before: string | null, after: string | null, path: string): ConfigChange[] {
  const [was, now] = [testRecipes(before), testRecipes(after)];
  return [...was].flatMap(([target, recipe]) =>
    now.get(target) === recipe
      ? []
      : [
          {
            message: `the \`${target}\` target changed in ${path}`,
            lines: [
              ...recipe.split("\n").map((l) => `-${l}`),
              ...(now.get(target) ?? "")
                .split("\n")
                .filter((l) => l !== "")
                .map((l) => `+${l}`),
            ],
          },
        ],
  );
}

/** The repository's own test command and gate (it is protected; a change here is read all the same). */
function judgeRepoConfig(before: string | null, after: string | null, path: string): ConfigChange[] {
  if (!path.endsWith(".github/patchgate.yml") && !path.endsWith(".github/patchgate.yaml")) return [];
  const [was, now] = [parseYamlText(before), parseYamlText(after)];
  return ["test", "tests", "gate"].flatMap((key) => {
    const [a, b] = [JSON.stringify(at(was, [key])), JSON.stringify(at(now, [key]))];
    return a !== b && at(was, [key]) !== undefined ? [{ message: `\`${key}\` changed in ${path}`, lines: [`-${key}: ${a}`, `+${key}: ${b ?? ""}`] }] : [];
  });
}

/** `go test` with `-run`/`-skip`/`-short`, and `cargo test` with `--skip`/`--exclude`/`--lib`…: fewer tests run. */
const NARROWED_TEST_COMMAND =
  /\bgo\s+test\b[^\n]*?\s-{1,2}(?:run|skip|short)\b|\bcargo\s+(?:test|nextest\s+run)\b[^\n]*?\s(?:--skip|--exclude|--lib|--bins?|--doc|--test\b|--no-run|--ignored)\b/g;

/** Narrowing flags in any file that is not code the detectors read (Makefiles, scripts, package.json, CI). */
const narrowedTestCommand: Detector = {
  id: "go_rust.test_flags",
  kind: "test_config_relaxed",
  ecosystem: "Go, Rust",
  looksAt: "`go test` gaining `-run`/`-skip`/`-short`, `cargo test` gaining `--skip`/`--exclude`/`--lib`/…, in any script, Makefile or manifest",
  detect: (ctx: DetectContext) =>
    ctx.files.flatMap((file): IntegrityFinding[] => {
      if (file.language !== null && file.language !== "python" && file.language !== "js") return [];
      const [was, now] = [countMatches(file.before ?? "", NARROWED_TEST_COMMAND), countMatches(file.after ?? "", NARROWED_TEST_COMMAND)];
      return now > was
        ? [
            {
              kind: "test_config_relaxed",
              detector: "go_rust.test_flags",
              path: file.path,
              message: `the test command in ${file.path} now runs fewer tests`,
              lines: linesShowing(file.before, file.after, NARROWED_TEST_COMMAND),
            },
          ]
        : [];
    }),
};

/** Cargo.toml switches that take tests out of `cargo test`, or checks out of test builds. */
const CARGO_OFF = /^[ \t]*(?:test|doctest|bench|harness)[ \t]*=[ \t]*false\b|^[ \t]*(?:debug-assertions|overflow-checks)[ \t]*=[ \t]*false\b/gm;

export const buildConfigRows: readonly Detector[] = [
  configRow({
    id: "make.test_target",
    kind: "test_config_relaxed",
    ecosystem: "any (make)",
    looksAt: "the recipe of a Makefile's `test`/`tests`/`check`/`test-*` target changed or removed",
    names: /^(?:GNUmakefile|[Mm]akefile|.+\.mk)$/,
    judge: judgeMakefile,
  }),
  configRow({
    id: "repo.test_command",
    kind: "test_config_relaxed",
    ecosystem: "any",
    looksAt: "`.github/patchgate.yml` `test`, `tests` or `gate` changed",
    names: /^patchgate\.ya?ml$/,
    judge: judgeRepoConfig,
  }),
  narrowedTestCommand,
  configRow({
    id: "rust.cargo_test",
    kind: "test_config_relaxed",
    ecosystem: "Rust",
    looksAt: "Cargo.toml `test = false`, `doctest = false`, `harness = false`, `[profile.test]` `debug-assertions`/`overflow-checks = false` added",
    names: /^Cargo\.toml$/,
    judge: (before, after, path) =>
      countMatches(after ?? "", CARGO_OFF) > countMatches(before ?? "", CARGO_OFF)
        ? [{ message: `Cargo.toml at ${path} now leaves tests or checks out of \`cargo test\``, lines: linesShowing(before, after, CARGO_OFF) }]
        : [],
  }),
];

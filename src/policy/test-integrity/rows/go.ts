import type { Detector } from "../detector.js";
import { countRow } from "./count-row.js";

/** Called, or taken as a value (`skip := t.Skip`). */
const GO_SKIP = /\b\w+\s*\.\s*(?:Skip|Skipf|SkipNow)\b/;
/** A build constraint on a test file takes it out of a plain `go test`. */
const GO_BUILD_CONSTRAINT = /^\/\/\s*(?:go:build|\+build)\b/m;
/**
 * `t.Error(…)`/`Fatal…`/`Fail…` on any receiver but the packages that share those names (`fmt.Errorf`,
 * `err.Error()` takes no argument), and testify/is-style `require.*(`/`assert.*(`.
 */
const GO_ASSERTION =
  /\b(?!fmt\b|errors\b|xerrors\b|log\b)\w+\.(?:Error|Errorf|Fatal|Fatalf)\s*\((?!\s*\))|\b\w+\.(?:Fail|FailNow)\s*\(\s*\)|\b(?:require|assert|is)\.\w+\s*\(/;
const GO_SUPPRESSION = /\/\/\s*nolint\b|\/\/\s*lint:ignore\b|\/\/\s*#?nosec\b/;

export const goRows: readonly Detector[] = [
  countRow({
    id: "go.skip",
    kind: "skip_marker_added",
    ecosystem: "Go",
    looksAt: "`t.Skip`, `t.Skipf`, `t.SkipNow` (any receiver, called or aliased) in test code",
    language: "go",
    pattern: GO_SKIP,
    scope: "tests",
    comments: "ignored",
    finding: "up",
    message: (path, before, after, example) => `${example ? `\`${example.trim()}\`` : "a skip"} added in ${path} (${before} → ${after})`,
  }),
  countRow({
    id: "go.build_constraint",
    kind: "skip_marker_added",
    ecosystem: "Go",
    looksAt: "a `//go:build` (or `// +build`) constraint added to a test file: a plain `go test` no longer compiles it",
    language: "go",
    pattern: GO_BUILD_CONSTRAINT,
    scope: "tests",
    comments: "counted",
    finding: "up",
    message: (path) => `a build constraint added to ${path}: a plain \`go test\` skips the file`,
  }),
  countRow({
    id: "go.assertions",
    kind: "assertions_removed",
    ecosystem: "Go",
    looksAt: "`t.Error*`/`t.Fatal*`/`t.Fail*` calls and testify `require.*`/`assert.*` in a changed test file, comments not counted",
    language: "go",
    pattern: GO_ASSERTION,
    scope: "tests",
    comments: "ignored",
    finding: "down",
    message: (path, before, after) => `assertions removed in ${path} (${before} → ${after})`,
  }),
  countRow({
    id: "go.suppression",
    kind: "suppression_added",
    ecosystem: "Go",
    looksAt: "`//nolint`, `//lint:ignore`, `// #nosec` in any Go file",
    language: "go",
    pattern: GO_SUPPRESSION,
    scope: "source",
    comments: "counted",
    finding: "up",
    message: (path, before, after, example) => `${example ? `\`${example}\`` : "a suppression"} added in ${path} (${before} → ${after})`,
  }),
];

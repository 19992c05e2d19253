import type { Detector } from "../detector.js";
import { countRow } from "./count-row.js";

/** `#[ignore]`, and a cfg that is never true, which compiles the test out. */
const RUST_IGNORE = /#\[ignore\b|#\[cfg_attr\([^\]]*\bignore\b|#\[cfg\(\s*(?:any\(\s*\)|FALSE|false|not\(\s*test\s*\))\s*\)\]/;
/** The assert macros (proptest's too), `panic!`, and `#[should_panic]`, which asserts a panic. */
const RUST_ASSERTION =
  /\b(?:assert|assert_eq|assert_ne|assert_matches|debug_assert|debug_assert_eq|debug_assert_ne|prop_assert|prop_assert_eq|prop_assert_ne|panic)!\s*[([{]|#\[should_panic\b/;
const RUST_SUPPRESSION = /#!?\[\s*(?:allow|expect)\s*\(/;

export const rustRows: readonly Detector[] = [
  countRow({
    id: "rust.ignore",
    kind: "skip_marker_added",
    ecosystem: "Rust",
    looksAt: "`#[ignore]` (also through `cfg_attr`), `#[cfg(any())]`/`#[cfg(FALSE)]` in test code: `tests/**` and `#[cfg(test)]` modules",
    language: "rust",
    pattern: RUST_IGNORE,
    scope: "tests",
    comments: "ignored",
    finding: "up",
    message: (path, before, after, example) => `\`${example?.startsWith("#[cfg(") ? example : "#[ignore]"}\` added in ${path} (${before} → ${after})`,
  }),
  countRow({
    id: "rust.assertions",
    kind: "assertions_removed",
    ecosystem: "Rust",
    looksAt: "`assert!`, `assert_eq!`, `assert_ne!`, `debug_assert*!`, `prop_assert*!`, `panic!`, `#[should_panic]` in test code, comments not counted",
    language: "rust",
    pattern: RUST_ASSERTION,
    scope: "tests",
    comments: "ignored",
    finding: "down",
    message: (path, before, after) => `assertions removed in ${path} (${before} → ${after})`,
  }),
  countRow({
    id: "rust.suppression",
    kind: "suppression_added",
    ecosystem: "Rust",
    looksAt: "`#[allow(…)]`, `#![allow(…)]`, `#[expect(…)]` in any Rust file",
    language: "rust",
    pattern: RUST_SUPPRESSION,
    scope: "source",
    comments: "ignored",
    finding: "up",
    message: (path, before, after) => `a lint suppression (\`#[allow(…)]\`) added in ${path} (${before} → ${after})`,
  }),
];

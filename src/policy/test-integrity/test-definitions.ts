import type { TestLanguage } from "./language.js";

/**
 * How a test is declared, per language: `it(`/`test(` (any runner's modifiers between), `def test_…`
 * and `class Test…`, `func TestX(` (and benchmarks, fuzz targets, examples), `#[test]` with any
 * path before it (`#[tokio::test]`, `#[test_case(…)]`).
 */
export const TEST_DEFINITION: Readonly<Record<TestLanguage, RegExp>> = {
  js: /\b(?:it|test|specify|Deno\.test)\s*(?:\.\s*\w+\s*)*\(/g,
  python: /^[ \t]*(?:(?:async[ \t]+)?def[ \t]+test\w*[ \t]*\(|class[ \t]+Test\w*)/gm,
  go: /^func[ \t]+(?:Test|Benchmark|Fuzz|Example)\w*[ \t]*\(/gm,
  rust: /#\[(?:\w+::)*test(?:_case)?\b/g,
};

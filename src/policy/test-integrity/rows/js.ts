import type { Detector } from "../detector.js";
import { countRow } from "./count-row.js";

const plural = (n: number) => (n === 1 ? "" : "s");

/**
 * Jest, Vitest, Mocha, Jasmine, node:test: `.skip`/`.todo`/`.skipIf` (called, or taken as a value:
 * `const later = it.skip`), `["skip"]`, `xit`…, Jasmine's `pending(`, Mocha's `this.skip()`, and a
 * test file that ends the process with success before its tests fail.
 */
const JS_SKIP =
  /(?:\b\w+\s*)?\.\s*(?:skip|todo|skipIf|runIf)\b|\[\s*["'`](?:skip|todo|skipIf)["'`]\s*\]|\bx(?:it|describe|test|context|specify)\b|\bpending\s*\(|\{\s*skip\s*:\s*(?!false\b)|\bprocess\.exit\s*\(\s*0?\s*\)/;
const JS_FOCUS = /(?:\b\w+\s*)?\.\s*only\b|\[\s*["'`]only["'`]\s*\]|\bf(?:it|describe)\s*\(|\{\s*only\s*:\s*true\b/;
/** expect, node:assert and chai's assert, chai's should, ava/tap's `t.is(`… */
const JS_ASSERTION =
  /\bexpect(?:\s*\.\s*\w+)?\s*\(|\bassert(?:\s*\.\s*\w+)*\s*\(|\.should\b|\bt\s*\.\s*(?:is|not|deepEqual|notDeepEqual|equal|notEqual|ok|notOk|truthy|falsy|true|false|throws\w*|notThrows\w*|same|strictSame|match|fail|rejects|resolves)\s*\(/;
/** TypeScript's and ESLint's and the coverage tools' way of not looking at a line. */
const JS_SUPPRESSION = /@ts-ignore\b|@ts-expect-error\b|@ts-nocheck\b|\beslint-disable\b|\bbiome-ignore\b|\b(?:istanbul|c8|v8)\s+ignore\b/;

export const jsRows: readonly Detector[] = [
  countRow({
    id: "js.skip",
    kind: "skip_marker_added",
    ecosystem: "JS/TS",
    looksAt:
      '`.skip`, `.todo`, `.skipIf` (called or aliased, `["skip"]` too), `xit`/`xdescribe`/`xtest`, `pending(`, `{ skip: … }`, `process.exit(0)` in test code, counted before and after',
    language: "js",
    pattern: JS_SKIP,
    scope: "tests",
    comments: "ignored",
    finding: "up",
    message: (path, before, after, example) =>
      `${example ? `\`${example.trim()}\`` : "a skip marker"} added in ${path} (${before} → ${after} skip marker${plural(after)})`,
  }),
  countRow({
    id: "js.focus",
    kind: "focus_marker_added",
    ecosystem: "JS/TS",
    looksAt: "`.only` (called or aliased), `fit(`/`fdescribe(`, `{ only: true }` in test code: every other test stops running",
    language: "js",
    pattern: JS_FOCUS,
    scope: "tests",
    comments: "ignored",
    finding: "up",
    message: (path, before, after, example) =>
      `${example ? `\`${example.trim()}\`` : "a focus marker"} added in ${path} (${before} → ${after}): the other tests stop running`,
  }),
  countRow({
    id: "js.assertions",
    kind: "assertions_removed",
    ecosystem: "JS/TS",
    looksAt: "assertion calls (`expect(`, `assert(`/`assert.*(`, `.should`, `t.is(`…) in a changed test file, comments not counted",
    language: "js",
    pattern: JS_ASSERTION,
    scope: "tests",
    comments: "ignored",
    finding: "down",
    message: (path, before, after) => `assertions removed in ${path} (${before} → ${after})`,
  }),
  countRow({
    id: "js.suppression",
    kind: "suppression_added",
    ecosystem: "JS/TS",
    looksAt: "`@ts-ignore`, `@ts-expect-error`, `@ts-nocheck`, `eslint-disable…`, `biome-ignore`, `istanbul`/`c8`/`v8 ignore` in any source file",
    language: "js",
    pattern: JS_SUPPRESSION,
    scope: "source",
    comments: "counted",
    finding: "up",
    message: (path, before, after, example) => `${example ? `\`${example}\`` : "a suppression"} added in ${path} (${before} → ${after})`,
  }),
];

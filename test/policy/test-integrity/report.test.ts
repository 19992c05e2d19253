import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { integrityDigest } from "../../../src/policy/test-integrity/index.js";
import { DETECTORS } from "../../../src/policy/test-integrity/table.js";
import { change, found, weakening } from "./weakening.js";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SPEC = "test('adds', () => {\n  expect(add(1, 2)).toBe(3);\n});\n";

describe("the detector table", () => {
  test("every row has its own id, and a test in this folder that expects it to find something", () => {
    const ids = DETECTORS.map((d) => d.id);
    expect(new Set(ids).size).toBe(ids.length);
    const tests = readdirSync(HERE)
      .filter((f) => f.endsWith(".test.ts") && f !== "report.test.ts")
      .map((f) => readFileSync(path.join(HERE, f), "utf8"))
      .join("\n")
      .replace(/\s+/g, "")
      .replace(/,\]/g, "]");
    expect(ids.filter((id) => !tests.includes(`toEqual(["${id}"]`) && !tests.includes(`detector:"${id}"`) && !tests.includes(`toContain("${id}")`))).toEqual(
      [],
    );
  });

  test("the report counts the rows run and the test files examined", () => {
    const report = weakening([change("test/add.test.ts", SPEC, SPEC), change("src/add.ts", "a\n", "b\n"), change("src/__snapshots__/a.snap", "x\n", "x\ny\n")]);
    expect(report).toEqual({ findings: [], detectorsRun: DETECTORS.length, testFilesExamined: 2 });
  });
});

describe("tests.allow", () => {
  const removed = change("test/add.test.ts", SPEC, null);
  const skipped = change("test/sub.test.ts", SPEC, SPEC.replace("test(", "test.skip("));
  const script = change("package.json", '{"scripts":{"test":"jest"}}', '{"scripts":{"test":"jest -t adds"}}');

  test("each allowance lets through its own kind and no other", () => {
    expect(found([removed, skipped, script])).toEqual(["any.test_removed", "js.skip", "js.test_script"]);
    expect(found([removed, skipped, script], { allow: ["deleted_tests"] })).toEqual(["js.skip", "js.test_script"]);
    expect(found([removed, skipped, script], { allow: ["skips"] })).toEqual(["any.test_removed", "js.test_script"]);
    expect(found([removed, skipped, script], { allow: ["test_config"] })).toEqual(["any.test_removed", "js.skip"]);
    expect(found([removed, skipped, script], { allow: ["snapshots", "fewer_tests"] })).toEqual(["any.test_removed", "js.skip", "js.test_script"]);
  });

  test("no allowance covers removed assertions, focus markers, suppressions or lowered strictness", () => {
    const weakened = [
      change("test/add.test.ts", SPEC, SPEC.replace("  expect(add(1, 2)).toBe(3);\n", "")),
      change("test/b.test.ts", SPEC, SPEC.replace("test(", "test.only(")),
      change("src/a.ts", "a\n", "// @ts-ignore\na\n"),
      change("tsconfig.json", '{"compilerOptions":{"strict":true}}', '{"compilerOptions":{}}'),
    ];
    const all = ["snapshots", "test_config", "fewer_tests", "skips", "deleted_tests"] as const;
    expect(found(weakened, { allow: all })).toEqual(found(weakened));
    expect(found(weakened)).toEqual(["js.focus", "js.assertions", "js.suppression", "ts.strict"]);
  });
});

describe("integrityDigest", () => {
  const a = change("test/a.test.ts", SPEC, null);
  const b = change("test/b.test.ts", SPEC, SPEC.replace("test(", "test.skip("));

  test("the same findings give the same digest in any order; other findings another", () => {
    const one = integrityDigest(weakening([a, b]));
    expect(one).toMatch(/^[0-9a-f]{64}$/);
    expect(integrityDigest(weakening([b, a]))).toBe(one);
    expect(integrityDigest(weakening([a]))).not.toBe(one);
    expect(integrityDigest(weakening([a, change("test/b.test.ts", SPEC, SPEC.replace("test(", "test.skip(").replace("adds", "sums"))]))).not.toBe(one);
  });
});

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parse as parseYaml } from "yaml";
import { builtinCasesDir } from "../../src/eval/builtin-cases.js";
import { EvalCaseSchema } from "../../src/eval/case-schema.js";
import { CaseLoadError, loadCaseFile, loadCases } from "../../src/eval/case-loader.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "eval-cases-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function write(rel: string, text: string): string {
  const file = path.join(dir, rel);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

describe("built-in cases", () => {
  const cases = loadCases(builtinCasesDir());

  test("there are at least 14, with unique ids, and every one of them has a script", () => {
    expect(cases.length).toBeGreaterThanOrEqual(14);
    expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length);
    for (const c of cases) expect(c.script.length).toBeGreaterThan(0);
  });

  test("they cover the situations the issue lists", () => {
    const ids = cases.map((c) => c.id);
    for (const id of [
      "read-file",
      "code-search",
      "single-file-edit",
      "multi-file-edit",
      "fix-failing-test",
      "writes-denied",
      "dangerous-command",
      "bad-patch-recovery",
      "edit-without-read",
      "plan-revision",
      "context-compaction",
      "checkpoint-resume",
      "prompt-injection",
      "loop-limit",
      "tests-failed",
    ])
      expect(ids).toContain(id);
    expect(cases.find((c) => c.id === "loop-limit")?.expect).toMatchObject({ outcome: "failed", class: "loop_limit" });
    expect(cases.find((c) => c.id === "tests-failed")?.expect).toMatchObject({ outcome: "failed", class: "tests_failed" });
  });

  test("shared fixtures resolve to an absolute directory", () => {
    const c = cases.find((x) => x.id === "read-file")!;
    expect(c.fixtureDir).toBe(path.join(builtinCasesDir(), "_fixtures", "calc"));
  });
});

describe("user-written cases", () => {
  test("the example in eval/cases/README.md is a valid case", () => {
    const readme = readFileSync(path.join(builtinCasesDir(), "README.md"), "utf8");
    const example = /```yaml\n([\s\S]*?)```/.exec(readme)?.[1] ?? "";
    const parsed = EvalCaseSchema.safeParse(parseYaml(example));
    expect(parsed.error?.issues ?? []).toEqual([]);
    expect(parsed.data?.script).toHaveLength(5);
  });

  test("a JSON case with only inline files gets the defaults", () => {
    const file = write(
      "mine/case.json",
      JSON.stringify({
        category: "docs",
        task: { title: "Fix it" },
        files: { "a.txt": "x" },
        approvals: ["approve_plan", { deny_writes: "no" }, { revise: "more" }],
        expect: { outcome: "done" },
      }),
    );
    const c = loadCaseFile(file);
    expect(c).toMatchObject({
      id: "mine",
      dir: path.join(dir, "mine"),
      fixtureDir: null,
      task: { title: "Fix it", body: "" },
      settings: { max_steps_per_resume: 30 },
      approvals: [{ action: "approve_plan" }, { action: "deny_writes", reason: "no" }, { action: "revise", feedback: "more" }],
      modes: ["scripted", "openai"],
      expect: { outcome: "done", class: "none", observed: [], events: {}, tool_successes: {} },
    });
  });

  test("every bad field is named with its path", () => {
    const file = write(
      "bad/case.yaml",
      ["category: x", "task: { title: t }", "expect: { outcome: finished, class: oops }", "script: [{ tool: read_file, calls: [{ tool: x }] }]"].join("\n"),
    );
    expect(() => loadCaseFile(file)).toThrow(CaseLoadError);
    try {
      loadCaseFile(file);
    } catch (e) {
      const problems = (e as CaseLoadError).problems.join("\n");
      expect(problems).toMatch(/^expect\.outcome: /m);
      expect(problems).toMatch(/^expect\.class: /m);
      expect(problems).toMatch(/^script\.0: use either `tool`\/`args` or `calls`/m);
    }
  });

  test("a secret must be set in env and long enough to be found without false hits", () => {
    const file = write("s/case.yaml", "category: x\ntask: { title: t }\nenv: { TOKEN: short }\nsecrets: [TOKEN]\nexpect: { outcome: done }\n");
    expect(() => loadCaseFile(file)).toThrow(/secrets: every name/);
  });

  test("an explicit fixture that does not exist is an error; YAML that does not parse too", () => {
    const missing = write("m/case.yaml", "category: x\nfixture: ../nowhere\ntask: { title: t }\nexpect: { outcome: done }\n");
    expect(() => loadCaseFile(missing)).toThrow(/fixture: directory \.\.\/nowhere not found/);
    const broken = write("y/case.yaml", "category: [x\n");
    expect(() => loadCaseFile(broken)).toThrow(/cannot parse/);
  });

  test("a directory of cases skips _fixtures and dot directories and sorts by name", () => {
    write("b/case.yaml", "category: x\ntask: { title: t }\nexpect: { outcome: done }\n");
    write("a/case.yml", "category: x\ntask: { title: t }\nexpect: { outcome: done }\n");
    write("_fixtures/case.yaml", "not a case");
    write(".hidden/case.yaml", "not a case");
    expect(loadCases(dir).map((c) => c.id)).toEqual(["a", "b"]);
    expect(loadCases(path.join(dir, "b")).map((c) => c.id)).toEqual(["b"]);
  });

  test("duplicate ids and an empty directory are refused", () => {
    expect(() => loadCases(dir)).toThrow(/no case directories/);
    write("one/case.yaml", "id: same\ncategory: x\ntask: { title: t }\nexpect: { outcome: done }\n");
    write("two/case.yaml", "id: same\ncategory: x\ntask: { title: t }\nexpect: { outcome: done }\n");
    expect(() => loadCases(dir)).toThrow(/duplicate case id same/);
  });
});

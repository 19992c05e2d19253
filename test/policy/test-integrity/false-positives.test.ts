import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import vm from "node:vm";
import { stringify as toYaml } from "yaml";
import { REPO_CONFIG_PATH } from "../../../src/config/repo-config.js";
import { builtinCasesDir } from "../../../src/eval/builtin-cases.js";
import type { EvalCase } from "../../../src/eval/case-schema.js";
import { loadCases } from "../../../src/eval/case-loader.js";
import type { IntegrityAllowance, IntegrityFile } from "../../../src/policy/test-integrity/index.js";
import { NPM_CONFIG, packageJson } from "../../real-layouts/npm-layout.js";
import { weakening } from "./weakening.js";

/**
 * False positives, measured: the detectors run over changes known to be legitimate — every write the
 * golden eval cases script (the final tree against the base tree the case builds) and the fix each
 * real-layout project's session makes — and must find nothing. The cases that weaken tests on
 * purpose (`tests_weakened`) are left out: finding those is their point.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

function filesUnder(dir: string, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    const rel = prefix + name;
    if (statSync(full).isDirectory()) for (const [k, v] of filesUnder(full, `${rel}/`)) out.set(k, v);
    else out.set(rel, readFileSync(full, "utf8"));
  }
  return out;
}

/** The base tree as buildFixtureRepo commits it: the fixture, the inline files, the repo config. */
function baseTree(c: EvalCase): Map<string, string> {
  const tree = c.fixtureDir ? filesUnder(c.fixtureDir) : new Map<string, string>();
  for (const [rel, content] of Object.entries(c.files)) tree.set(rel, content);
  if (c.config) tree.set(REPO_CONFIG_PATH, toYaml(c.config));
  return tree;
}

type Args = Record<string, unknown>;

/**
 * Every write the script asks for, applied in order, whether or not the case lets it through: more
 * change than the published tree has, never less. A write the tool would refuse (a search not found)
 * changes nothing, as in the session.
 */
function applyWrite(tree: Map<string, string>, tool: string, args: Args): void {
  if (tool === "move_file" && typeof args.from === "string" && typeof args.to === "string") {
    const moved = tree.get(args.from);
    if (moved !== undefined && !tree.has(args.to)) {
      tree.delete(args.from);
      tree.set(args.to, moved);
    }
    return;
  }
  const p = typeof args.path === "string" ? args.path : null;
  if (p === null) return;
  if (tool === "write_file" && typeof args.content === "string") tree.set(p, args.content);
  if (tool === "edit_file" && Array.isArray(args.edits)) {
    let text = tree.get(p);
    for (const e of args.edits as Array<{ search?: unknown; replace?: unknown }>)
      if (text !== undefined && typeof e.search === "string" && typeof e.replace === "string" && text.includes(e.search))
        text = text.replace(e.search, e.replace);
    if (text !== undefined) tree.set(p, text);
  }
}

function finalTree(c: EvalCase, base: Map<string, string>): Map<string, string> {
  const tree = new Map(base);
  for (const step of c.script) {
    const calls = step.calls ?? (step.tool ? [{ tool: step.tool, args: step.args ?? {} }] : []);
    for (const call of calls) if (typeof call.args === "object") applyWrite(tree, call.tool, call.args);
  }
  return tree;
}

function changes(before: Map<string, string>, after: Map<string, string>): IntegrityFile[] {
  const paths = [...new Set([...before.keys(), ...after.keys()])].sort();
  return paths.filter((p) => before.get(p) !== after.get(p)).map((p) => ({ path: p, before: before.get(p) ?? null, after: after.get(p) ?? null }));
}

/** The LAYOUT object of each real-layout test, read from its file (importing it would run the test). */
function realLayouts(): Array<{ name: string; files: Record<string, string>; fix: { path: string; search: string; replace: string } }> {
  const dir = path.join(ROOT, "test/real-layouts");
  return readdirSync(dir)
    .filter((f) => f.endsWith(".slow.test.ts"))
    .sort()
    .map((f) => {
      const source = readFileSync(path.join(dir, f), "utf8");
      const literal = /^const LAYOUT: Layout = (\{[\s\S]*?\n\});$/m.exec(source)?.[1];
      if (literal === undefined) throw new Error(`no LAYOUT object in test/real-layouts/${f}`);
      return vm.runInNewContext(`(${literal})`, { packageJson, NPM_CONFIG }) as ReturnType<typeof realLayouts>[number];
    });
}

test("the golden eval cases' legitimate changes: 0 findings", () => {
  // A string compare: the class is new, and this measurement must not wait for it to exist.
  const weakensOnPurpose = (c: EvalCase) => String(c.expect.class) === "tests_weakened" || c.expect.observed.map(String).includes("tests_weakened");
  const cases = loadCases(builtinCasesDir()).filter((c) => !weakensOnPurpose(c));
  let examined = 0;
  let testFiles = 0;
  const found: string[] = [];
  for (const c of cases) {
    const base = baseTree(c);
    const files = changes(base, finalTree(c, base));
    examined += files.length;
    const { config } = c;
    const tests = (config as { tests?: { paths?: string[]; golden?: string[]; allow?: IntegrityAllowance[] } } | undefined)?.tests;
    const report = weakening(files, { ...(tests?.paths ? { testGlobs: tests.paths } : {}), goldenGlobs: tests?.golden ?? [], allow: tests?.allow ?? [] });
    testFiles += report.testFilesExamined;
    found.push(...report.findings.map((f) => `${c.id}: ${f.detector} ${f.message}`));
  }
  expect(cases.length).toBeGreaterThanOrEqual(25);
  expect(examined).toBeGreaterThanOrEqual(20);
  expect(testFiles).toBeGreaterThanOrEqual(3);
  expect(found).toEqual([]);
});

test("the real-layout projects' fixes, and each project's whole tree added as new: 0 findings", () => {
  const layouts = realLayouts();
  let testFiles = 0;
  expect(layouts.map((l) => l.name)).toEqual(["cargo", "go", "jest", "mocha", "node-test", "pytest", "vitest"]);
  const found = layouts.flatMap((l) => {
    const before = l.files[l.fix.path];
    const fix = weakening([{ path: l.fix.path, before, after: before.replace(l.fix.search, l.fix.replace) }]);
    const created = weakening(Object.entries(l.files).map(([p, text]) => ({ path: p, before: null, after: text })));
    testFiles += created.testFilesExamined;
    return [...fix.findings, ...created.findings].map((f) => `${l.name}: ${f.detector} ${f.message}`);
  });
  expect(testFiles).toBeGreaterThanOrEqual(layouts.length);
  expect(found).toEqual([]);
});

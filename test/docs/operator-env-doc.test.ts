import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { OperatorEnvSchema } from "../../src/config/operator-env-schema.js";
import { documentedTable, operatorEnvTable, OperatorEnvDocError, withGeneratedTable } from "../../src/config/operator-env-doc.js";

/**
 * The configuration table is generated from the OperatorEnv schema (`npm run docs:env`): a variable
 * the schema has and the table lacks, or a row for a variable that is gone, fails here, and so does a
 * `PATCHGATE_*` name in src/ that the schema does not declare.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const DOC = "docs/configuration.md";
const doc = readFileSync(path.join(ROOT, DOC), "utf8");
const declared = Object.keys(OperatorEnvSchema.shape);

function rowNames(table: string): string[] {
  return [...table.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \|/gm)].map((m) => m[1]);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? sourceFiles(path.join(dir, d.name)) : d.name.endsWith(".ts") ? [path.join(dir, d.name)] : [],
  );
}

test("every variable of the schema has a row, and every row a variable", () => {
  const documented = rowNames(documentedTable(doc, DOC));
  expect({ undocumented: declared.filter((n) => !documented.includes(n)), notInSchema: documented.filter((n) => !declared.includes(n)) }).toEqual({
    undocumented: [],
    notInSchema: [],
  });
});

test("the table is the one generated from the schema (run `npm run docs:env`)", () => {
  expect(documentedTable(doc, DOC)).toBe(operatorEnvTable());
});

test("every variable has a meaning and a default", () => {
  const bare = Object.entries(OperatorEnvSchema.shape).filter(([, s]) => !s.meta()?.description || !s.meta()?.unset);
  expect(bare.map(([name]) => name)).toEqual([]);
});

test("every PATCHGATE_* variable src/ names is declared in the schema", () => {
  const named = new Set(
    sourceFiles(path.join(ROOT, "src")).flatMap((f) => [...readFileSync(f, "utf8").matchAll(/(?:\.|["'`])(PATCHGATE_[A-Z0-9_]*[A-Z0-9])\b/g)].map((m) => m[1])),
  );
  expect(named.size).toBeGreaterThan(20);
  expect([...named].filter((n) => !declared.includes(n)).sort()).toEqual([]);
});

test("regenerating replaces only what lies between the markers", () => {
  const [start, end] = [doc.indexOf("<!-- operator-env:"), doc.indexOf("<!-- operator-env: end -->")];
  const changed = `${doc.slice(0, start)}${doc.slice(start).replace(/^\| `PATCHGATE_MODEL` .*$/m, "| `PATCHGATE_MODEL` | stale | stale |")}`;
  const regenerated = withGeneratedTable(changed, DOC);
  expect(regenerated).toBe(withGeneratedTable(doc, DOC));
  expect(regenerated.slice(0, start)).toBe(doc.slice(0, start));
  expect(regenerated.slice(regenerated.indexOf("<!-- operator-env: end -->"))).toBe(doc.slice(end));
});

test("a document without the markers is one line naming the file", () => {
  expect(() => documentedTable("# Configuration\n", "x.md")).toThrow(OperatorEnvDocError);
  expect(() => documentedTable("# Configuration\n", "x.md")).toThrow(/^x\.md: the operator variables' table needs the lines /);
});

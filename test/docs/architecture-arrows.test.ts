import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { importGraph } from "../architecture/import-graph.js";

/**
 * The "Where is rule X" table of ARCHITECTURE.md as arrows: a row says a rule is decided in some
 * files and applied in others, so each file that decides must be reached, through the imports that
 * load code at run time, from a file of the row that applies it. A row whose applier no longer
 * reaches the rule names a place where the rule is not applied any more (or a map that is wrong).
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const doc = readFileSync(path.join(ROOT, "ARCHITECTURE.md"), "utf8");

/** The table's rows: [rule, files that decide, files that apply], paths relative to src/. */
function ruleRows(): [string, string[], string[]][] {
  const section = /## Where is rule X\n([\s\S]*?)\n## /.exec(doc)?.[1] ?? "";
  const files = (cell: string) => [...cell.matchAll(/`src\/([\w./-]+\.ts)`/g)].map((m) => m[1]);
  return section
    .split("\n")
    .filter((line) => line.startsWith("| ") && !line.startsWith("| rule ") && !line.startsWith("|---"))
    .map((line) => line.split(" | "))
    .map((cells) => [cells[0].slice(2), files(cells[1]), files(cells.slice(2).join(" | "))]);
}

/** Every file reachable from `start` through imports that load at run time (static or `import()`). */
function reachable(start: string, next: Map<string, string[]>): Set<string> {
  const seen = new Set([start]);
  const todo = [start];
  while (todo.length > 0) {
    for (const to of next.get(todo.pop()!) ?? []) {
      if (seen.has(to)) continue;
      seen.add(to);
      todo.push(to);
    }
  }
  return seen;
}

const next = new Map<string, string[]>();
for (const e of importGraph(path.join(ROOT, "src"))) if (!e.typeOnly) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
const rows = ruleRows();

test("the table is read: every row names files on both sides", () => {
  expect(rows.length).toBeGreaterThan(20);
  expect(rows.filter(([, decide, apply]) => decide.length === 0 || apply.length === 0).map(([rule]) => rule)).toEqual([]);
});

test("each file that decides a rule is reached from a file of its row that applies it", () => {
  const unreached = rows.flatMap(([rule, decide, apply]) => {
    const reach = new Set(apply.flatMap((a) => [...reachable(a, next)]));
    return decide.filter((d) => !reach.has(d)).map((d) => `${rule}: src/${d} from none of ${apply.map((a) => `src/${a}`).join(", ")}`);
  });
  expect(unreached).toEqual([]);
});

import path from "node:path";
import { fileURLToPath } from "node:url";
import { LAYERS, layerOf } from "../../layers.js";
import { cycles, folderOf, importGraph, sourceFiles, type ImportEdge } from "./import-graph.js";

/**
 * The layer table (layers.js) against the real imports of src/: static imports, `export … from`,
 * `import("…")` and `typeof import("…")`, type-only ones included (a type is a dependency too). Each
 * failure lists the offending edges or cycles file by file, so a reviewer sees which arrow to cut.
 */
const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../src");
const edges = importGraph(SRC);

/** `agent/loop.ts` → `agent/`, `index.ts` → `index.ts`: the names LAYERS uses. */
function entryOf(file: string): string {
  const folder = folderOf(file);
  return folder === file ? file : `${folder}/`;
}

/** Imports that go up the layers, or sideways to another folder of the same layer. */
function againstTheLayers(all: readonly ImportEdge[]): string[] {
  return all.flatMap(({ from, to }) => {
    const [a, b] = [entryOf(from), entryOf(to)];
    if (a === b || layerOf(b) < layerOf(a)) return [];
    const way = layerOf(b) === layerOf(a) ? "beside it" : "up";
    return [`${from} -> ${to} (${LAYERS[layerOf(a)].name} imports ${way}: ${LAYERS[layerOf(b)].name})`];
  });
}

test("every top-level entry of src/ is in exactly one layer, and every layer's entry exists", () => {
  const entries = [...new Set(sourceFiles(SRC).map(entryOf))].sort();
  const listed = LAYERS.flatMap((l) => l.folders);
  expect(entries.filter((e) => layerOf(e) === -1)).toEqual([]);
  expect(listed.filter((f) => !entries.includes(f))).toEqual([]);
  expect(listed.filter((f, i) => listed.indexOf(f) !== i)).toEqual([]);
});

test("the graph is read: src/ has hundreds of imports between its files, some of them dynamic", () => {
  expect(edges.length).toBeGreaterThan(1000);
  expect(edges.some((e) => e.dynamic)).toBe(true);
});

test("no import goes up the layers or beside (0)", () => {
  expect(againstTheLayers(edges)).toEqual([]);
});

test("no cycle between folders (0)", () => {
  const folderEdges = edges.map((e) => ({ from: entryOf(e.from), to: entryOf(e.to) })).filter((e) => e.from !== e.to);
  const found = cycles(folderEdges).map((cycle) =>
    cycle
      .slice(1)
      .map((to, i) => {
        const from = cycle[i];
        const witness = edges.find((e) => entryOf(e.from) === from && entryOf(e.to) === to)!;
        return `${witness.from} -> ${witness.to}`;
      })
      .join(", "),
  );
  expect(found).toEqual([]);
});

test("no cycle between files (0)", () => {
  expect(cycles(edges).map((cycle) => cycle.join(" -> "))).toEqual([]);
});

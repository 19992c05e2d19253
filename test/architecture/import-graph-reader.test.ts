import { cycles, specifiers } from "./import-graph.js";

/** The reader behind import-graph.test.ts sees every kind of import, and its cycle finder finds cycles: else a 0 there proves nothing. */
test("every way a module names another is read, type-only and dynamic ones marked", () => {
  const source = [
    'import { a } from "./static.js";',
    'import type { T } from "./types.js";',
    'import { type U } from "./only-type.js";',
    'export { b } from "./re-export.js";',
    'const lazy = () => import("./lazy.js");',
    'type M = typeof import("./type-query.js");',
    "const computed = (name: string) => import(name);",
    'import fs from "node:fs";',
  ].join("\n");
  expect(specifiers("x.ts", source)).toEqual([
    { text: "./static.js", dynamic: false, typeOnly: false },
    { text: "./types.js", dynamic: false, typeOnly: true },
    { text: "./only-type.js", dynamic: false, typeOnly: true },
    { text: "./re-export.js", dynamic: false, typeOnly: false },
    { text: "./lazy.js", dynamic: true, typeOnly: false },
    { text: "./type-query.js", dynamic: false, typeOnly: true },
    { text: "node:fs", dynamic: false, typeOnly: false },
  ]);
});

test("a cycle is shown as a closed path through its members; a chain is no cycle", () => {
  const chain = [
    { from: "a", to: "b" },
    { from: "b", to: "c" },
  ];
  expect(cycles(chain)).toEqual([]);
  expect(cycles([...chain, { from: "c", to: "a" }, { from: "x", to: "y" }, { from: "y", to: "x" }])).toEqual([
    ["a", "b", "c", "a"],
    ["x", "y", "x"],
  ]);
});

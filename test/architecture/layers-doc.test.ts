import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { withLayersSection } from "../../layers.js";

/** ARCHITECTURE.md draws the layer table; a drawing that drifts from layers.js misleads. `node layers.js --write` redraws it. */
test("ARCHITECTURE.md's Layers section is the one drawn from layers.js", () => {
  const doc = readFileSync(path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../ARCHITECTURE.md"), "utf8");
  expect(doc).toContain("## Layers\n");
  expect(withLayersSection(doc)).toBe(doc);
});

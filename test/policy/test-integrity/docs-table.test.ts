import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ALLOWED_BY } from "../../../src/policy/test-integrity/find-weakening.js";
import { DEFAULT_SNAPSHOT_GLOBS, DEFAULT_TEST_GLOBS } from "../../../src/policy/test-integrity/globs.js";
import { DETECTORS } from "../../../src/policy/test-integrity/table.js";

/**
 * docs/test-integrity.md shows the detector table and the default globs; this renders them from the
 * source and holds the page to it, so a row added in code is a row in the documentation.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const BEGIN = "<!-- detector table: rendered from src/policy/test-integrity/table.ts -->";
const END = "<!-- end of detector table -->";
const code = (s: string) => `\`${s}\``;

function renderTable(): string {
  const rows = DETECTORS.map(
    (d) => `| ${code(d.id)} | ${d.ecosystem} | ${code(d.kind)} | ${d.looksAt} | ${ALLOWED_BY[d.kind] ? code(ALLOWED_BY[d.kind] ?? "") : "never"} |`,
  );
  return ["| row | ecosystem | finding | what it looks at | `tests.allow` that lets it through |", "|---|---|---|---|---|", ...rows].join("\n");
}

const doc = readFileSync(path.join(ROOT, "docs/test-integrity.md"), "utf8");

test("the table in docs/test-integrity.md is the source table", () => {
  const start = doc.indexOf(BEGIN);
  const end = doc.indexOf(END);
  expect(start).toBeGreaterThan(0);
  expect(doc.slice(start + BEGIN.length, end).trim()).toBe(renderTable());
});

test("the page names every default test and snapshot glob", () => {
  expect([...DEFAULT_TEST_GLOBS, ...DEFAULT_SNAPSHOT_GLOBS].filter((g) => !doc.includes(code(g)))).toEqual([]);
});

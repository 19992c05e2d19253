import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { EXECUTABLE_CONFIG } from "../../src/policy/executable-config.js";
import { manifestRows } from "../../src/policy/install-hooks.js";
import { isProtectedPath } from "../../src/policy/path-confinement.js";

/**
 * docs/security.md shows the executable-configuration table; this renders it from the source table
 * and holds the document to it, so a row added in code is a row in the documentation.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const BEGIN = "<!-- executable-config table: rendered from src/policy/executable-config.ts and src/policy/install-hooks.ts -->";
const END = "<!-- end of executable-config table -->";

const code = (s: string) => `\`${s}\``;

/** Paths the hard deny refuses outright are marked: deny stays deny, whatever is approved. */
function globCell(globs: readonly string[]): string {
  return globs.map((g) => (isProtectedPath(g) !== null ? `${code(g)} (denied)` : code(g))).join(", ");
}

function renderTable(): string {
  const rows = EXECUTABLE_CONFIG.map((r) => `| ${r.tool} | ${globCell(r.globs)} | ${r.when} |`);
  const manifests = manifestRows().map((m) => `| ${m.tool} | ${code(`**/${m.file}`)}, keys ${m.keys.map(code).join(", ")} | ${m.when} |`);
  return ["| tool | paths | when it runs |", "|---|---|---|", ...rows, ...manifests].join("\n");
}

test("the table in docs/security.md is the source table", () => {
  const doc = readFileSync(path.join(ROOT, "docs/security.md"), "utf8");
  const section = doc.slice(doc.indexOf("## Executable configuration"));
  const start = section.indexOf(BEGIN);
  const end = section.indexOf(END);
  expect(start).toBeGreaterThan(0);
  expect(section.slice(start + BEGIN.length, end).trim()).toBe(renderTable());
});

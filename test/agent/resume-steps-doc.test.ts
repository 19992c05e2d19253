import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { RESUME_STEPS } from "../../src/agent/resume.js";

/**
 * ARCHITECTURE.md "The resume" shows the steps of every resume in their order; this renders the list
 * from RESUME_STEPS and holds the document to it, so a step added, moved or renamed in code is one in
 * the map too.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const BEGIN = "<!-- resume steps: rendered from src/agent/resume.ts RESUME_STEPS -->";
const END = "<!-- end of resume steps -->";

function renderList(): string {
  return RESUME_STEPS.map((s, i) => `${i + 1}. \`${s.name}\`: ${s.doc}`).join("\n");
}

test("the list in ARCHITECTURE.md is RESUME_STEPS, in its order", () => {
  const doc = readFileSync(path.join(ROOT, "ARCHITECTURE.md"), "utf8");
  const section = doc.slice(doc.indexOf("## The resume"));
  const start = section.indexOf(BEGIN);
  const end = section.indexOf(END);
  expect(start).toBeGreaterThan(0);
  expect(end).toBeGreaterThan(start);
  expect(section.slice(start + BEGIN.length, end).trim()).toBe(renderList());
});

test("every step has a name of its own and a doc of one line", () => {
  const names = RESUME_STEPS.map((s) => s.name);
  expect(new Set(names).size).toBe(names.length);
  expect(RESUME_STEPS.filter((s) => s.doc.trim() === "" || s.doc.includes("\n")).map((s) => s.name)).toEqual([]);
});

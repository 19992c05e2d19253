import { expectFixedAlone, runLayout, type Layout } from "./layout-run.js";

/** node:test, no dependencies and no config: Patchgate detects `npm test` from package.json. */
const LAYOUT: Layout = {
  name: "node-test",
  files: {
    "package.json": JSON.stringify({ name: "slugs", version: "1.0.0", type: "module", scripts: { test: "node --test" } }, null, 2) + "\n",
    "src/slug.js": 'export function slug(title) {\n  return title.trim().toLowerCase().replace(/ +/, "-");\n}\n',
    "test/slug.test.js":
      'import { test } from "node:test";\nimport assert from "node:assert/strict";\nimport { slug } from "../src/slug.js";\n\n' +
      'test("joins every word with a dash", () => {\n  assert.equal(slug("Hello big  World"), "hello-big-world");\n});\n\ntest("lower-cases", () => {\n  assert.equal(slug("ABC"), "abc");\n});\n',
    ".gitignore": "node_modules/\n",
  },
  fix: { path: "src/slug.js", search: "replace(/ +/,", replace: "replace(/ +/g," },
  failingTest: "joins every word with a dash",
};

test("node:test: the fix alone is committed", async () => {
  const o = await runLayout(LAYOUT);
  expectFixedAlone(o, LAYOUT);
  expect(o.stdout).toContain("tests: npm test (package.json scripts.test; no lockfile → npm)");
}, 900_000);

import { expectFixedAlone, runLayout } from "./layout-run.js";
import { NPM_CONFIG, packageJson, registryMissing, type Layout } from "./npm-layout.js";

/** A CommonJS project tested with jest, installed from the npm registry in setup. */
const LAYOUT: Layout = {
  name: "jest",
  files: {
    // Plain CommonJS needs no transform: without one, jest loads no babel on each run.
    "package.json": packageJson("totals", "jest", { jest: "29.7.0" }, { jest: { transform: {} } }),
    "src/sum.js":
      "function sum(values) {\n  let total = 0;\n  for (let i = 1; i < values.length; i++) total += values[i];\n  return total;\n}\n\nmodule.exports = { sum };\n",
    "test/sum.test.js":
      'const { sum } = require("../src/sum");\n\ndescribe("sum", () => {\n  test("adds every value", () => {\n    expect(sum([1, 2, 3])).toBe(6);\n  });\n\n  test("is 0 for none", () => {\n    expect(sum([])).toBe(0);\n  });\n});\n',
    ".gitignore": "node_modules/\n",
    ".github/patchgate.yml": NPM_CONFIG,
  },
  fix: { path: "src/sum.js", search: "let i = 1;", replace: "let i = 0;" },
  failingTest: "test/sum.test.js: sum › adds every value",
};

test("jest: dependencies installed in setup, the fix alone is committed", async () => {
  if (registryMissing("jest@29.7.0")) return;
  expectFixedAlone(await runLayout(LAYOUT), LAYOUT);
}, 900_000);

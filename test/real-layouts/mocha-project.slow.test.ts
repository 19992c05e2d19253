import { expectFixedAlone, runLayout } from "./layout-run.js";
import { NPM_CONFIG, packageJson, registryMissing, type Layout } from "./npm-layout.js";

/** An ES-module project tested with mocha and node:assert, installed from the npm registry in setup. */
const LAYOUT: Layout = {
  name: "mocha",
  files: {
    "package.json": packageJson("pad", "mocha", { mocha: "10.8.2" }, { type: "module" }),
    "src/pad.js":
      'export function padLeft(text, width, fill = " ") {\n  let out = String(text);\n  while (out.length <= width) out = fill + out;\n  return out;\n}\n',
    "test/pad.spec.js":
      'import assert from "node:assert/strict";\nimport { padLeft } from "../src/pad.js";\n\ndescribe("padLeft", () => {\n  it("pads to exactly the width", () => {\n    assert.equal(padLeft("7", 3, "0"), "007");\n  });\n\n  it("leaves long text alone", () => {\n    assert.equal(padLeft("1234", 3), "1234");\n  });\n});\n',
    ".gitignore": "node_modules/\n",
    ".github/patchgate.yml": NPM_CONFIG,
  },
  fix: { path: "src/pad.js", search: "out.length <= width", replace: "out.length < width" },
  failingTest: "padLeft › pads to exactly the width",
};

test("mocha: dependencies installed in setup, the fix alone is committed", async () => {
  if (registryMissing("mocha@10.8.2")) return;
  expectFixedAlone(await runLayout(LAYOUT), LAYOUT);
}, 900_000);

import { expectFixedAlone, runLayout } from "./layout-run.js";
import { NPM_CONFIG, packageJson, registryMissing, type Layout } from "./npm-layout.js";

/** A TypeScript project: `tsc --noEmit` then vitest, both installed from the npm registry in setup. */
const LAYOUT: Layout = {
  name: "vitest",
  files: {
    "package.json": packageJson("ranges", "tsc --noEmit && vitest run", { typescript: "5.9.3", vitest: "2.1.9" }, { type: "module" }),
    "tsconfig.json":
      JSON.stringify(
        {
          // A library for Node: no DOM, whose declarations are most of what tsc would read on every run.
          compilerOptions: {
            target: "ES2022",
            lib: ["ES2022"],
            module: "ESNext",
            moduleResolution: "Bundler",
            strict: true,
            noEmit: true,
            skipLibCheck: true,
            types: [],
          },
          include: ["src", "test"],
        },
        null,
        2,
      ) + "\n",
    "src/range.ts":
      "/** The integers from `start` up to and including `end`. */\nexport function range(start: number, end: number): number[] {\n  const out: number[] = [];\n  for (let i = start; i < end; i++) out.push(i);\n  return out;\n}\n",
    "test/range.test.ts":
      'import { describe, expect, it } from "vitest";\nimport { range } from "../src/range";\n\ndescribe("range", () => {\n  it("includes the end", () => {\n    expect(range(1, 3)).toEqual([1, 2, 3]);\n  });\n\n  it("is one number when start is end", () => {\n    expect(range(4, 4)).toEqual([4]);\n  });\n});\n',
    ".gitignore": "node_modules/\n",
    ".github/patchgate.yml": NPM_CONFIG,
  },
  fix: { path: "src/range.ts", search: "i < end;", replace: "i <= end;" },
  failingTest: "test/range.test.ts: range > includes the end",
};

test("vitest + TypeScript: dependencies installed in setup, the fix alone is committed", async () => {
  if (registryMissing("vitest@2.1.9")) return;
  expectFixedAlone(await runLayout(LAYOUT), LAYOUT);
}, 900_000);

import { change, found, weakening } from "./weakening.js";

const PKG = JSON.stringify(
  { name: "calc", scripts: { test: "jest", build: "tsc" }, jest: { testPathIgnorePatterns: ["/node_modules/"], coverageThreshold: { global: { lines: 90 } } } },
  null,
  2,
);
interface Pkg {
  scripts: Record<string, string>;
  jest: { testPathIgnorePatterns: string[] };
  dependencies?: Record<string, string>;
}
const pkg = (edit: (p: Pkg) => void) => {
  const p = JSON.parse(PKG) as Pkg;
  edit(p);
  return JSON.stringify(p, null, 2);
};

describe("js.test_script", () => {
  test("scripts.test changed is found, with both commands", () => {
    const after = pkg((p) => (p.scripts.test = "jest --passWithNoTests src/add"));
    expect(weakening([change("package.json", PKG, after)]).findings).toEqual([
      {
        kind: "test_config_relaxed",
        detector: "js.test_script",
        path: "package.json",
        message: "`scripts.test` changed in package.json",
        lines: ['-"test": "jest"', '+"test": "jest --passWithNoTests src/add"'],
      },
    ]);
  });

  test("another script changed, or a dependency added, is not", () => {
    expect(
      found([
        change(
          "package.json",
          PKG,
          pkg((p) => ((p.scripts.build = "tsc -p ."), (p.dependencies = { zod: "^4" }))),
        ),
      ]),
    ).toEqual([]);
  });
});

describe("js.runner_config", () => {
  test("testPathIgnorePatterns grown in package.json is found", () => {
    expect(
      found([
        change(
          "package.json",
          PKG,
          pkg((p) => p.jest.testPathIgnorePatterns.push("/test/slow/")),
        ),
      ]),
    ).toEqual(["js.runner_config"]);
  });

  test("a coverage threshold lowered in jest.config.js is found; raised is not", () => {
    const cfg = "module.exports = {\n  coverageThreshold: { global: { branches: 80, lines: 90 } },\n};\n";
    expect(weakening([change("jest.config.js", cfg, cfg.replace("lines: 90", "lines: 50"))]).findings).toMatchObject([
      { detector: "js.runner_config", message: "coverage threshold `lines` lowered in jest.config.js: 90 → 50" },
    ]);
    expect(found([change("jest.config.js", cfg, cfg.replace("lines: 90", "lines: 95"))])).toEqual([]);
  });

  test("vitest exclude changed and nyc check-coverage turned off are found", () => {
    const vitest = "export default defineConfig({\n  test: {\n    exclude: ['node_modules'],\n  },\n});\n";
    expect(found([change("vitest.config.ts", vitest, vitest.replace("['node_modules']", "['node_modules', 'test/parser/**']"))])).toEqual(["js.runner_config"]);
    expect(found([change(".nycrc", '{"check-coverage": true, "lines": 80}', '{"check-coverage": false, "lines": 80}')])).toEqual(["js.runner_config"]);
  });

  test("a setting that selects nothing changed (the test environment) is not", () => {
    const cfg = "module.exports = {\n  testEnvironment: 'node',\n  testMatch: ['**/*.test.js'],\n};\n";
    expect(found([change("jest.config.js", cfg, cfg.replace("'node'", "'jsdom'"))])).toEqual([]);
  });
});

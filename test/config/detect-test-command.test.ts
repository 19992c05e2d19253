import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { detectTestCommand } from "../../src/config/detect-test-command.js";

const roots: string[] = [];
function repo(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "pg-detect-"));
  roots.push(root);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}
afterAll(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));

const pkg = (test: string, deps = true) => JSON.stringify({ scripts: { test }, ...(deps ? { devDependencies: { jest: "^30" } } : {}) });

describe("detectTestCommand", () => {
  test.each([
    [
      { "package.json": pkg("jest"), "package-lock.json": "{}" },
      { command: "npm test", setup: "npm ci", source: "package.json scripts.test; package-lock.json → npm" },
    ],
    [
      { "package.json": pkg("jest"), "yarn.lock": "" },
      { command: "yarn test", setup: "yarn install --frozen-lockfile", source: "package.json scripts.test; yarn.lock → yarn" },
    ],
    [
      { "package.json": pkg("jest"), "yarn.lock": "", ".yarnrc.yml": "" },
      { command: "yarn test", setup: "yarn install --immutable", source: "package.json scripts.test; yarn.lock → yarn" },
    ],
    [
      { "package.json": pkg("vitest"), "pnpm-lock.yaml": "" },
      { command: "pnpm test", setup: "pnpm install --frozen-lockfile", source: "package.json scripts.test; pnpm-lock.yaml → pnpm" },
    ],
    [{ "package.json": pkg("node --test", false) }, { command: "npm test", source: "package.json scripts.test; no lockfile → npm" }],
    [{ "pytest.ini": "[pytest]\n" }, { command: "python -m pytest", source: "pytest.ini → pytest" }],
    [
      { "pyproject.toml": "[project]\nname='x'\n\n[tool.pytest.ini_options]\naddopts='-q'\n", "requirements.txt": "pytest\n" },
      { command: "python -m pytest", setup: "python -m pip install -r requirements.txt", source: "pyproject.toml [tool.pytest] → pytest" },
    ],
    [
      { "tests/test_math.py": "def test_x(): pass\n", "requirements-dev.txt": "pytest\n" },
      { command: "python -m pytest", setup: "python -m pip install -r requirements-dev.txt", source: "tests/ with test_*.py → pytest" },
    ],
    [{ "go.mod": "module example.com/x\n" }, { command: "go test ./...", setup: "go mod download", source: "go.mod → go test" }],
    [{ "Cargo.toml": "[package]\nname='x'\n" }, { command: "cargo test", setup: "cargo fetch", source: "Cargo.toml → cargo test" }],
    [{ Makefile: "build:\n\tcc x.c\n\ntest: build\n\t./run-tests\n" }, { command: "make test", source: "Makefile has a test: target" }],
  ])("%j → %j", async (files, expected) => {
    expect(await detectTestCommand(repo(files))).toEqual(expected);
  });

  test("npm's placeholder script means no tests; the next ecosystem is tried", async () => {
    const root = repo({ "package.json": pkg('echo "Error: no test specified" && exit 1'), "go.mod": "module x\n" });
    expect(await detectTestCommand(root)).toEqual({ command: "go test ./...", setup: "go mod download", source: "go.mod → go test" });
  });

  test("a JS test script wins over a Makefile", async () => {
    const root = repo({ "package.json": pkg("jest"), "package-lock.json": "{}", Makefile: "test:\n\tnpm test\n" });
    expect((await detectTestCommand(root))?.command).toBe("npm test");
  });

  test("nothing recognisable → null (a Makefile without a test target, a pyproject without pytest, broken package.json)", async () => {
    const root = repo({ Makefile: "TEST := 1\nbuild:\n\tcc x.c\n", "pyproject.toml": "[project]\nname='x'\n", "package.json": "{not json" });
    expect(await detectTestCommand(root)).toBeNull();
  });
});

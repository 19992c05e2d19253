import { readFile, readdir, stat } from "node:fs/promises";
import path from "node:path";

/** A guessed test command, used only when `.github/patchgate.yml` names none. */
export interface DetectedTestCommand {
  command: string;
  /** Dependency install for the setup step, when the ecosystem has one. */
  setup?: string;
  /** Which files decided, for the timeline: "package.json scripts.test; pnpm-lock.yaml → pnpm". */
  source: string;
}

/** First match wins, in this order: a JS test script, pytest, go, cargo, a Makefile `test:` target. */
export async function detectTestCommand(root: string): Promise<DetectedTestCommand | null> {
  for (const detect of [detectNode, detectPytest, detectGo, detectCargo, detectMake]) {
    const found = await detect(root);
    if (found) return found;
  }
  return null;
}

// `npm init` writes this script; it means "no tests", not "run this".
const NPM_PLACEHOLDER = /no test specified/;

async function detectNode(root: string): Promise<DetectedTestCommand | null> {
  const text = await read(root, "package.json");
  if (text === null) return null;
  let pkg: { scripts?: Record<string, unknown>; dependencies?: object; devDependencies?: object };
  try {
    pkg = JSON.parse(text);
  } catch {
    return null;
  }
  const script = pkg.scripts?.test;
  if (typeof script !== "string" || script.trim() === "" || NPM_PLACEHOLDER.test(script)) return null;
  const hasDeps = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }).length > 0;
  const tool = await nodeTool(root);
  return { command: `${tool.name} test`, setup: hasDeps ? tool.install : undefined, source: `package.json scripts.test; ${tool.why}` };
}

// The lockfile says which tool the maintainers use; installing with another would rewrite it.
async function nodeTool(root: string): Promise<{ name: string; install: string; why: string }> {
  if (await exists(root, "pnpm-lock.yaml")) return { name: "pnpm", install: "pnpm install --frozen-lockfile", why: "pnpm-lock.yaml → pnpm" };
  if (await exists(root, "yarn.lock")) {
    const berry = await exists(root, ".yarnrc.yml");
    return { name: "yarn", install: berry ? "yarn install --immutable" : "yarn install --frozen-lockfile", why: "yarn.lock → yarn" };
  }
  for (const lock of ["package-lock.json", "npm-shrinkwrap.json"]) {
    if (await exists(root, lock)) return { name: "npm", install: "npm ci", why: `${lock} → npm` };
  }
  return { name: "npm", install: "npm install", why: "no lockfile → npm" };
}

async function detectPytest(root: string): Promise<DetectedTestCommand | null> {
  const why = await pytestEvidence(root);
  if (!why) return null;
  const reqs = (await exists(root, "requirements-dev.txt")) ? "requirements-dev.txt" : (await exists(root, "requirements.txt")) ? "requirements.txt" : null;
  // `python -m pytest` also puts the repository root on sys.path, as most projects expect.
  return { command: "python -m pytest", setup: reqs ? `python -m pip install -r ${reqs}` : undefined, source: `${why} → pytest` };
}

async function pytestEvidence(root: string): Promise<string | null> {
  if (await exists(root, "pytest.ini")) return "pytest.ini";
  if (/^\[tool\.pytest[.\]]/m.test((await read(root, "pyproject.toml")) ?? "")) return "pyproject.toml [tool.pytest]";
  if (/^\[tool:pytest\]/m.test((await read(root, "setup.cfg")) ?? "")) return "setup.cfg [tool:pytest]";
  if (await exists(root, "conftest.py")) return "conftest.py";
  const testFiles = await readdir(path.join(root, "tests")).catch(() => [] as string[]);
  if (testFiles.some((f) => /^test_.*\.py$|_test\.py$/.test(f))) return "tests/ with test_*.py";
  return null;
}

async function detectGo(root: string): Promise<DetectedTestCommand | null> {
  if (!(await exists(root, "go.mod"))) return null;
  return { command: "go test ./...", setup: "go mod download", source: "go.mod → go test" };
}

async function detectCargo(root: string): Promise<DetectedTestCommand | null> {
  if (!(await exists(root, "Cargo.toml"))) return null;
  return { command: "cargo test", setup: "cargo fetch", source: "Cargo.toml → cargo test" };
}

async function detectMake(root: string): Promise<DetectedTestCommand | null> {
  for (const name of ["GNUmakefile", "Makefile", "makefile"]) {
    const text = await read(root, name);
    if (text !== null && /^test\s*:(?!=)/m.test(text)) return { command: "make test", source: `${name} has a test: target` };
  }
  return null;
}

async function read(root: string, name: string): Promise<string | null> {
  return readFile(path.join(root, name), "utf8").catch(() => null);
}

async function exists(root: string, name: string): Promise<boolean> {
  return stat(path.join(root, name)).then(
    (s) => s.isFile(),
    () => false,
  );
}

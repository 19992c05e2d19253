import { execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** A real git repository on disk with the given files committed on `main`. */
export function makeRepo(files: Record<string, string>): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "pg-src-"));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  const git = (...args: string[]) => execFileSync("git", ["-c", "core.hooksPath=/dev/null", ...args], { cwd: dir, stdio: "pipe" });
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("-c", "user.name=Fixture", "-c", "user.email=fixture@example.invalid", "commit", "-q", "-m", "initial");
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export function tempDir(prefix = "pg-tmp-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** A small JavaScript project with a failing test: `add` subtracts. */
export const BUGGY_ADD_REPO: Record<string, string> = {
  "src/add.js": "export function add(a, b) {\n  return a - b;\n}\n",
  "test.sh": 'node --input-type=module -e \'import { add } from "./src/add.js"; if (add(2, 3) !== 5) { console.log("FAIL add(2,3) =", add(2, 3)); process.exit(1); } console.log("ok");\'\n',
  ".github/patchgate.yml": "test: sh test.sh\n",
  "README.md": "# fixture\n",
};

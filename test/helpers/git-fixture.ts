import { execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, realpathSync, writeFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** A file's content, or `{ symlink: target }` for a symbolic link (target written as given). */
export type FixtureEntry = string | Buffer | { symlink: string };

export function writeEntries(dir: string, files: Record<string, FixtureEntry>): void {
  for (const [rel, entry] of Object.entries(files)) {
    const abs = join(dir, rel);
    mkdirSync(dirname(abs), { recursive: true });
    if (typeof entry === "object" && !Buffer.isBuffer(entry)) symlinkSync(entry.symlink, abs);
    else writeFileSync(abs, entry);
  }
}

/**
 * The one git-fixture builder: a real git repository on disk with `files` committed on `main` (an
 * empty commit when there are none); `dir` is a realpath, so it compares equal to what git reports.
 */
export function makeRepo(files: Record<string, FixtureEntry>, prefix = "pg-src-"): { dir: string; cleanup: () => void } {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  writeEntries(dir, files);
  const git = (...args: string[]) => execFileSync("git", ["-c", "core.hooksPath=/dev/null", ...args], { cwd: dir, stdio: "pipe" });
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("-c", "user.name=Fixture", "-c", "user.email=fixture@example.invalid", "commit", "-q", "--allow-empty", "-m", "initial");
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export function tempDir(prefix = "pg-tmp-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** A small JavaScript project with a failing test: `add` subtracts. */
export const BUGGY_ADD_REPO: Record<string, string> = {
  "src/add.js": "export function add(a, b) {\n  return a - b;\n}\n",
  "test.sh":
    'node --input-type=module -e \'import { add } from "./src/add.js"; if (add(2, 3) !== 5) { console.log("FAIL add(2,3) =", add(2, 3)); process.exit(1); } console.log("ok");\'\n',
  ".github/patchgate.yml": "test: sh test.sh\n",
  "README.md": "# fixture\n",
};

import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** A file's content, or `{ symlink: target }` for a symbolic link (target written as given). */
export type FixtureEntry = string | Buffer | { symlink: string };

function git(dir: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "core.hooksPath=/dev/null", "-c", "user.name=Fixture", "-c", "user.email=fixture@example.invalid", ...args], {
    cwd: dir,
    stdio: "pipe",
    encoding: "utf8",
  }).trim();
}

export function writeEntries(dir: string, files: Record<string, FixtureEntry>): void {
  for (const [rel, entry] of Object.entries(files)) {
    const abs = join(dir, rel);
    mkdirSync(dirname(abs), { recursive: true });
    if (typeof entry === "object" && !Buffer.isBuffer(entry)) symlinkSync(entry.symlink, abs);
    else writeFileSync(abs, entry);
  }
}

/** A real git repository with `files` committed on `main`; `dir` is already a realpath. */
export function makeTempRepo(files: Record<string, FixtureEntry>): { dir: string; cleanup: () => void } {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "pg-tools-")));
  writeEntries(dir, files);
  git(dir, "init", "-q", "-b", "main");
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "--allow-empty", "-m", "fixture");
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

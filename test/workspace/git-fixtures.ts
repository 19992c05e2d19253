import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/**
 * Plain git for building fixtures and for looking at results: deliberately NOT the hardened runner
 * under test, so that hooks and config behave as they would for any other git user.
 */
const plainEnv = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_AUTHOR_NAME: "Fixture",
  GIT_AUTHOR_EMAIL: "fixture@example.test",
  GIT_COMMITTER_NAME: "Fixture",
  GIT_COMMITTER_EMAIL: "fixture@example.test",
};

export function sh(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, env: plainEnv, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trimEnd();
}

const made: string[] = [];

export function tempDir(prefix = "pg-ws-"): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  made.push(d);
  return d;
}

export function cleanupTempDirs(): void {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
}

export function write(root: string, path: string, content: string | Buffer): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), content);
}

/** An executable script that records that it ran by creating `marker`. */
export function markerScript(file: string, marker: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `#!/bin/sh\ntouch '${marker}'\nexit 0\n`);
  chmodSync(file, 0o755);
}

/** A source repository on `main`: two tracked files and a .gitignore for *.log and build/. */
export function makeSource(): { dir: string; head: string } {
  const dir = tempDir("pg-src-");
  sh(dir, "init", "--quiet", "--initial-branch=main");
  write(dir, "README.md", "# widgets\n");
  write(dir, "src/parse.txt", "line one\nline two\nline three\n");
  write(dir, ".gitignore", "*.log\nbuild/\n");
  sh(dir, "add", "-A");
  sh(dir, "commit", "--quiet", "-m", "initial");
  return { dir, head: sh(dir, "rev-parse", "HEAD") };
}

export function makeBare(): string {
  const dir = join(tempDir("pg-remote-"), "remote.git");
  sh(tmpdir(), "init", "--quiet", "--bare", dir);
  return dir;
}

/** Every file under `dir` that contains one of `needles` (a token, its base64 form). */
export function filesContaining(dir: string, needles: string[]): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile() && needles.some((n) => readFileSync(f).includes(n)));
}

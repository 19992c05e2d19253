/**
 * A large repository made on the spot for the git figures (nothing copied from elsewhere): FILES
 * files of random text in DIRS directories, about FILES × FILE_BYTES bytes, committed on `main` and packed.
 * Random bytes do not compress, so the pack is about as large as the tree.
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

export const FILES = 20_000;
const DIRS = 200;
const FILE_BYTES = 5_000;

export function gitIn(cwd: string, args: string[], env: Record<string, string> = {}): string {
  const identity = {
    GIT_AUTHOR_NAME: "bench",
    GIT_AUTHOR_EMAIL: "bench@example.invalid",
    GIT_COMMITTER_NAME: "bench",
    GIT_COMMITTER_EMAIL: "bench@example.invalid",
  };
  // gc.auto=0: the fixture's 20,000 loose objects would make `commit` start a detached `gc --auto`
  // that repacks behind the bench's back (competing for the CPU, and writing into .git while the
  // bench removes it: ENOTEMPTY). It is packed once, in the foreground, below.
  return execFileSync("git", ["-c", "core.hooksPath=/dev/null", "-c", "gc.auto=0", ...args], {
    cwd,
    encoding: "utf8",
    maxBuffer: 1 << 30,
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null", ...identity, ...env },
  });
}

/** Writes and commits the repository in `dir` (which must not exist); returns its size in bytes. */
export function makeLargeRepo(dir: string): number {
  for (let d = 0; d < DIRS; d++) {
    const sub = path.join(dir, "src", `mod${String(d).padStart(3, "0")}`);
    mkdirSync(sub, { recursive: true });
    for (let f = 0; f < FILES / DIRS; f++) writeFileSync(path.join(sub, `file${f}.txt`), randomBytes(FILE_BYTES / 2).toString("hex"));
  }
  writeFileSync(path.join(dir, ".gitignore"), "build/\nnode_modules/\n");
  gitIn(dir, ["init", "-q", "-b", "main"]);
  gitIn(dir, ["add", "-A"]);
  gitIn(dir, ["commit", "-q", "-m", "large fixture"]);
  // Packed, as a repository one clones is.
  gitIn(dir, ["repack", "-a", "-d", "-q"]);
  return FILES * FILE_BYTES;
}

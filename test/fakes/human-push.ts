import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/**
 * A maintainer's push to a branch of the fake GitHub's bare repository, with plain git and a human
 * identity: the commit Patchgate did not make. `from` is where the new commit starts (default: the
 * branch itself); returns its sha.
 */
const HUMAN = {
  ...process.env,
  GIT_AUTHOR_NAME: "Mona Maintainer",
  GIT_AUTHOR_EMAIL: "mona@example.com",
  GIT_COMMITTER_NAME: "Mona Maintainer",
  GIT_COMMITTER_EMAIL: "mona@example.com",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
};

function git(args: string[], cwd: string): string {
  return execFileSync("git", args, { cwd, env: HUMAN, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
}

export function pushHumanCommit(bare: string, branch: string, files: Record<string, string>, opts: { from?: string; message?: string } = {}): string {
  const work = mkdtempSync(join(tmpdir(), "pg-human-"));
  try {
    git(["clone", "--quiet", bare, work], tmpdir());
    git(["checkout", "--quiet", "-B", branch, `origin/${opts.from ?? branch}`], work);
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(dirname(join(work, path)), { recursive: true });
      writeFileSync(join(work, path), content);
    }
    git(["add", "-A"], work);
    git(["commit", "--quiet", "-m", opts.message ?? "A maintainer's commit"], work);
    git(["push", "--quiet", "origin", `HEAD:refs/heads/${branch}`], work);
    return git(["rev-parse", "HEAD"], work);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

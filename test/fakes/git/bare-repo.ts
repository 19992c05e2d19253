import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** Builds and inspects the bare repositories the fake GitHub serves. Real git, no mocks. */
const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: "Octo Cat",
  GIT_AUTHOR_EMAIL: "octo@example.com",
  GIT_COMMITTER_NAME: "Octo Cat",
  GIT_COMMITTER_EMAIL: "octo@example.com",
  GIT_CONFIG_NOSYSTEM: "1",
};

function git(args: string[], cwd?: string): string {
  return execFileSync("git", args, { cwd, env: GIT_ENV, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
}

/** Creates `<root>/<owner>/<repo>.git` with one commit on `main` holding `files`. */
export function createBareRepo(root: string, owner: string, repo: string, files: Record<string, string>): string {
  const bare = join(root, owner, `${repo}.git`);
  mkdirSync(dirname(bare), { recursive: true });
  git(["init", "--bare", "--initial-branch=main", bare]);
  const work = mkdtempSync(join(tmpdir(), "pg-seed-"));
  try {
    git(["init", "--initial-branch=main", work]);
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(dirname(join(work, path)), { recursive: true });
      writeFileSync(join(work, path), content);
    }
    git(["add", "-A"], work);
    git(["commit", "-m", "Initial commit"], work);
    git(["push", bare, "main"], work);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return bare;
}

export interface BranchCommit {
  sha: string;
  parents: string[];
  author: string;
  message: string;
  /** path → content of every file in the commit's tree. */
  files: Record<string, string>;
}

export function readBranch(bare: string, branch: string): BranchCommit | null {
  let sha: string;
  try {
    sha = git(["--git-dir", bare, "rev-parse", "--verify", `refs/heads/${branch}`]);
  } catch {
    return null;
  }
  const [parents, author, ...message] = git(["--git-dir", bare, "show", "-s", "--format=%P%n%an <%ae>%n%B", sha]).split("\n");
  const files: Record<string, string> = {};
  for (const path of git(["--git-dir", bare, "ls-tree", "-r", "--name-only", sha]).split("\n").filter(Boolean)) {
    files[path] = execFileSync("git", ["--git-dir", bare, "show", `${sha}:${path}`], { encoding: "utf8" });
  }
  return { sha, parents: parents.split(" ").filter(Boolean), author, message: message.join("\n").trim(), files };
}

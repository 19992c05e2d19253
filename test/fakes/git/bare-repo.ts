import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";

/** Builds and inspects the bare repositories the fake GitHub serves. Real git, no mocks. */
const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: "Octo Cat",
  GIT_AUTHOR_EMAIL: "octo@example.com",
  GIT_COMMITTER_NAME: "Octo Cat",
  GIT_COMMITTER_EMAIL: "octo@example.com",
  GIT_CONFIG_NOSYSTEM: "1",
};

function git(args: string[], cwd?: string, input?: string): string {
  return execFileSync("git", args, { cwd, env: GIT_ENV, encoding: "utf8", input, stdio: ["pipe", "pipe", "pipe"] }).trim();
}

/** A bare repository's files, relative path → bytes and mode; directories listed so empty ones come back too. */
interface RepoImage {
  dirs: string[];
  files: { path: string; data: Buffer; mode: number }[];
}

/**
 * Repositories built in this process, by content. Every test file starts several harnesses on the same
 * files, and git's init-add-commit-push costs five processes forked from a big test process; writing
 * the bytes of the first build again gives the same repository (same commit id) for none.
 */
const built = new Map<string, RepoImage>();

function imageOf(dir: string): RepoImage {
  const image: RepoImage = { dirs: [], files: [] };
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const full = join(d, entry.name);
      if (entry.isDirectory()) {
        image.dirs.push(relative(dir, full));
        walk(full);
      } else image.files.push({ path: relative(dir, full), data: readFileSync(full), mode: statSync(full).mode & 0o777 });
    }
  };
  walk(dir);
  return image;
}

function writeImage(image: RepoImage, dir: string): void {
  mkdirSync(dir, { recursive: true });
  for (const d of image.dirs) mkdirSync(join(dir, d), { recursive: true });
  for (const f of image.files) writeFileSync(join(dir, f.path), f.data, { mode: f.mode });
}

/** One commit on `main` holding `files`, made the way a person would: a work tree, `git add -A`, a push. */
function buildWithGit(bare: string, files: Record<string, string>): void {
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
}

/** Creates `<root>/<owner>/<repo>.git` with one commit on `main` holding `files`; each call gets its own repository. */
export function createBareRepo(root: string, owner: string, repo: string, files: Record<string, string>): string {
  const bare = join(root, owner, `${repo}.git`);
  mkdirSync(dirname(bare), { recursive: true });
  const key = createHash("sha256")
    .update(JSON.stringify(Object.entries(files).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))))
    .digest("hex");
  const image = built.get(key);
  if (image) writeImage(image, bare);
  else {
    buildWithGit(bare, files);
    built.set(key, imageOf(bare));
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

/** The blobs' contents from one `git cat-file --batch`: `<sha> <type> <size>\n<bytes>\n` per object asked. */
function readBlobs(bare: string, shas: string[]): string[] {
  if (shas.length === 0) return [];
  const out = execFileSync("git", ["--git-dir", bare, "cat-file", "--batch"], { input: `${shas.join("\n")}\n`, maxBuffer: 256 * 1024 * 1024 });
  const contents: string[] = [];
  let at = 0;
  for (const sha of shas) {
    const headerEnd = out.indexOf(10, at);
    const [, type, size] = out.subarray(at, headerEnd).toString("utf8").split(" ");
    if (type !== "blob") throw new Error(`${sha} in ${bare} is not a blob (${type ?? "missing"})`);
    const start = headerEnd + 1;
    contents.push(out.subarray(start, start + Number(size)).toString("utf8"));
    at = start + Number(size) + 1;
  }
  return contents;
}

/** The commit a branch points at, or null when there is no such branch: one git process, no file read. */
export function branchHead(bare: string, branch: string): string | null {
  try {
    return git(["--git-dir", bare, "rev-parse", "--verify", "--quiet", `refs/heads/${branch}^{commit}`]);
  } catch {
    return null;
  }
}

export function readBranch(bare: string, branch: string): BranchCommit | null {
  let head: string;
  try {
    head = git(["--git-dir", bare, "show", "-s", "--format=%H%n%P%n%an <%ae>%n%B", `refs/heads/${branch}^{commit}`]);
  } catch {
    return null;
  }
  const [sha, parents, author, ...message] = head.split("\n");
  // -z: paths exactly as stored, one NUL-ended `<mode> <type> <sha>\t<path>` entry each.
  const entries = git(["--git-dir", bare, "ls-tree", "-r", "-z", sha])
    .split("\0")
    .filter(Boolean)
    .map((line) => ({ sha: line.slice(0, line.indexOf("\t")).split(" ")[2], path: line.slice(line.indexOf("\t") + 1) }));
  const contents = readBlobs(
    bare,
    entries.map((e) => e.sha),
  );
  const files: Record<string, string> = {};
  entries.forEach((e, i) => (files[e.path] = contents[i]));
  return { sha, parents: parents.split(" ").filter(Boolean), author, message: message.join("\n").trim(), files };
}

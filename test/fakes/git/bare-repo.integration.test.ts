import { execFileSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { branchHead, createBareRepo, readBranch } from "./bare-repo.js";
import { tempDir } from "../../helpers/git-fixture.js";

/**
 * The bare repositories the fake GitHub serves: the same files give the same commit in a repository of
 * its own each time, and `readBranch` reads back exactly what a commit holds.
 */
describe("createBareRepo and readBranch", () => {
  const root = tempDir("pg-bare-repo-");
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const git = (bare: string, ...args: string[]) => execFileSync("git", ["--git-dir", bare, ...args], { encoding: "utf8" }).trim();
  const files = { "README.md": "# x\n", "src/add.js": "export const add = (a, b) => a + b;\n", ".gitignore": "*.log\n", "debug.log": "ignored\n" };

  test("the same files twice: the same commit, in two repositories that do not share anything", () => {
    const first = createBareRepo(join(root, "a"), "octo-org", "calculator", files);
    const second = createBareRepo(join(root, "b"), "octo-org", "calculator", { ...files });
    const a = readBranch(first, "main")!;
    expect(readBranch(second, "main")).toEqual(a);
    // What `git add -A` would commit: the ignored file is not in it.
    expect(a.files).toEqual({ "README.md": "# x\n", "src/add.js": "export const add = (a, b) => a + b;\n", ".gitignore": "*.log\n" });
    expect(a).toMatchObject({ parents: [], author: "Octo Cat <octo@example.com>", message: "Initial commit" });

    const tree = git(first, "rev-parse", `${a.sha}^{tree}`);
    const next = execFileSync("git", ["--git-dir", first, "commit-tree", tree, "-p", a.sha, "-m", "second"], {
      encoding: "utf8",
      env: { ...process.env, GIT_AUTHOR_NAME: "A", GIT_AUTHOR_EMAIL: "a@example.com", GIT_COMMITTER_NAME: "A", GIT_COMMITTER_EMAIL: "a@example.com" },
    }).trim();
    git(first, "update-ref", "refs/heads/main", next, a.sha);
    expect(readBranch(first, "main")).toMatchObject({ sha: next, parents: [a.sha], message: "second" });
    expect(readBranch(second, "main")!.sha).toBe(a.sha);
    expect([branchHead(first, "main"), branchHead(second, "main"), branchHead(second, "absent")]).toEqual([next, a.sha, null]);

    rmSync(first, { recursive: true, force: true });
    git(second, "fsck", "--strict", "--no-dangling");
    const clone = join(root, "clone");
    execFileSync("git", ["clone", "-q", second, clone]);
    expect(readFileSync(join(clone, "src/add.js"), "utf8")).toBe(files["src/add.js"]);
  });

  test("other files: another commit", () => {
    const one = readBranch(createBareRepo(join(root, "c"), "o", "r", { "a.txt": "1\n" }), "main")!;
    const two = readBranch(createBareRepo(join(root, "d"), "o", "r", { "a.txt": "2\n" }), "main")!;
    expect(one.sha).not.toBe(two.sha);
    expect(two.files).toEqual({ "a.txt": "2\n" });
  });

  test("readBranch reads paths git would quote, empty files and files without a final newline; no branch: null", () => {
    const odd = { "docs/über uns.md": "ä\n", "empty.txt": "", "no-newline.txt": "last", "tab\there.txt": "t\n" };
    const bare = createBareRepo(join(root, "e"), "o", "r", odd);
    expect(readBranch(bare, "main")!.files).toEqual(odd);
    expect(readBranch(bare, "absent")).toBeNull();
  });
});

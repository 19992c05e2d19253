import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cloneWorkspace } from "../../src/workspace/clone.js";
import { type GitWorkspace } from "../../src/workspace/git-workspace.js";
import { cleanupTempDirs, makeSource, tempDir, write } from "./git-fixtures.js";

/**
 * After a command, every file that is not ignored goes back to the snapshot taken before it; what the
 * command added goes away; ignored outputs stay. The source repository tracks README.md,
 * src/parse.txt and .gitignore (`*.log`, `build/`).
 */
let ws: GitWorkspace;
let outside: string;

beforeEach(async () => {
  const src = makeSource();
  ws = await cloneWorkspace({ source: src.dir, dir: join(tempDir(), "ws") });
  outside = tempDir("pg-outside-");
});
afterEach(cleanupTempDirs);

const read = (rel: string) => readFileSync(join(ws.root, rel), "utf8");

test("an unchanged tree: nothing to put back", async () => {
  const before = await ws.treeHash();
  expect([await ws.changedSince(before), await ws.rollBack(before)]).toEqual([[], []]);
});

test("tracked files modified and deleted, untracked files added: all put back; ignored outputs stay", async () => {
  const before = await ws.treeHash();
  write(ws.root, "README.md", "rewritten\n");
  rmSync(join(ws.root, "src/parse.txt"));
  write(ws.root, "PWNED.txt", "pwned\n");
  write(ws.root, "new/deep/file.js", "x\n");
  write(ws.root, "build/out.js", "compiled\n");
  write(ws.root, "debug.log", "log\n");
  expect(await ws.changedSince(before)).toEqual(["PWNED.txt", "README.md", "new/deep/file.js", "src/parse.txt"]);
  expect(await ws.rollBack(before)).toEqual(["PWNED.txt", "README.md", "new/deep/file.js", "src/parse.txt"]);
  expect([read("README.md"), read("src/parse.txt"), existsSync(join(ws.root, "PWNED.txt")), existsSync(join(ws.root, "new"))]).toEqual([
    "# widgets\n",
    "line one\nline two\nline three\n",
    false,
    false,
  ]);
  expect([read("build/out.js"), read("debug.log")]).toEqual(["compiled\n", "log\n"]);
  expect(await ws.treeHash()).toBe(before);
});

test("a file the agent had changed before the command goes back to the agent's version, not the base's", async () => {
  write(ws.root, "README.md", "agent's edit\n");
  const before = await ws.treeHash();
  write(ws.root, "README.md", "command's edit\n");
  await ws.rollBack(before);
  expect(read("README.md")).toBe("agent's edit\n");
});

test("a mode change is put back", async () => {
  const before = await ws.treeHash();
  chmodSync(join(ws.root, "README.md"), 0o755);
  expect(await ws.rollBack(before)).toEqual(["README.md"]);
  expect(lstatSync(join(ws.root, "README.md")).mode & 0o111).toBe(0);
});

test("a directory replaced by a symlink out of the workspace: the link goes, nothing outside is written", async () => {
  const before = await ws.treeHash();
  rmSync(join(ws.root, "src"), { recursive: true });
  symlinkSync(outside, join(ws.root, "src"));
  expect(await ws.rollBack(before)).toEqual(["src", "src/parse.txt"]);
  expect([lstatSync(join(ws.root, "src")).isDirectory(), read("src/parse.txt"), existsSync(join(outside, "parse.txt"))]).toEqual([
    true,
    "line one\nline two\nline three\n",
    false,
  ]);
});

test("a file replaced by a directory, and a new symlink: both undone", async () => {
  const before = await ws.treeHash();
  rmSync(join(ws.root, "README.md"));
  write(ws.root, "README.md/inner.txt", "x\n");
  symlinkSync("/etc/passwd", join(ws.root, "link"));
  await ws.rollBack(before);
  expect([read("README.md"), existsSync(join(ws.root, "link"))]).toEqual(["# widgets\n", false]);
  expect(lstatSync(join(ws.root, "README.md")).isFile()).toBe(true);
});

test("a tracked symlink retargeted is restored as the same link", async () => {
  symlinkSync("README.md", join(ws.root, "readme-link"));
  const before = await ws.treeHash();
  rmSync(join(ws.root, "readme-link"));
  symlinkSync(outside, join(ws.root, "readme-link"));
  await ws.rollBack(before);
  expect(readlinkSync(join(ws.root, "readme-link"))).toBe("README.md");
});

test("files hidden by a .gitignore the command rewrote are found once it is put back", async () => {
  const before = await ws.treeHash();
  writeFileSync(join(ws.root, ".gitignore"), "*.log\nbuild/\nsneaky.js\nsrc/\n");
  write(ws.root, "sneaky.js", "evil\n");
  write(ws.root, "src/parse.txt", "changed under a new ignore rule\n");
  expect(await ws.rollBack(before)).toEqual([".gitignore", "sneaky.js", "src/parse.txt"]);
  expect([existsSync(join(ws.root, "sneaky.js")), read("src/parse.txt")]).toEqual([false, "line one\nline two\nline three\n"]);
  expect(await ws.treeHash()).toBe(before);
});

test("a new directory with only ignored files in it keeps them", async () => {
  const before = await ws.treeHash();
  mkdirSync(join(ws.root, "pkg"));
  write(ws.root, "pkg/a.js", "x\n");
  write(ws.root, "pkg/trace.log", "kept\n");
  await ws.rollBack(before);
  expect([existsSync(join(ws.root, "pkg/a.js")), read("pkg/trace.log")]).toEqual([false, "kept\n"]);
});

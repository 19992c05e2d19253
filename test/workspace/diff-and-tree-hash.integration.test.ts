import { execFileSync } from "node:child_process";
import { rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cloneWorkspace } from "../../src/workspace/clone.js";
import { type GitWorkspace } from "../../src/workspace/git-workspace.js";
import { countsFromStat } from "../../src/workspace/diff.js";
import { cleanupTempDirs, makeSource, sh, tempDir, write } from "./git-fixtures.js";

let src: { dir: string; head: string };
let ws: GitWorkspace;

beforeEach(async () => {
  src = makeSource();
  ws = await cloneWorkspace({ source: src.dir, dir: join(tempDir(), "ws") });
});
afterEach(cleanupTempDirs);

const clone = async () => cloneWorkspace({ source: src.dir, dir: join(tempDir(), "ws") });
const baseTree = () => sh(src.dir, "rev-parse", `${src.head}^{tree}`);

describe("diff", () => {
  test("a clean clone has an empty diff", async () => {
    expect(await ws.diff(["README.md"])).toEqual({ stat: "", patch: "", filesChanged: 0, insertions: 0, deletions: 0 });
  });

  test("includes a modified file and a new untracked one, as a patch with a stat", async () => {
    const oldBlob = sh(ws.root, "rev-parse", "HEAD:src/parse.txt");
    write(ws.root, "src/parse.txt", "line one\nline 2\nline three\n");
    write(ws.root, "new.txt", "hello\n");
    const newBlob = sh(ws.root, "hash-object", "src/parse.txt");
    const helloBlob = sh(ws.root, "hash-object", "new.txt");
    expect(await ws.diff(["src/parse.txt", "new.txt"])).toEqual({
      stat: " new.txt       | 1 +\n src/parse.txt | 2 +-\n 2 files changed, 2 insertions(+), 1 deletion(-)\n",
      patch: [
        "diff --git a/new.txt b/new.txt",
        "new file mode 100644",
        `index ${"0".repeat(40)}..${helloBlob}`,
        "--- /dev/null",
        "+++ b/new.txt",
        "@@ -0,0 +1 @@",
        "+hello",
        "diff --git a/src/parse.txt b/src/parse.txt",
        `index ${oldBlob}..${newBlob} 100644`,
        "--- a/src/parse.txt",
        "+++ b/src/parse.txt",
        "@@ -1,3 +1,3 @@",
        " line one",
        "-line two",
        "+line 2",
        " line three",
        "",
      ].join("\n"),
      filesChanged: 2,
      insertions: 2,
      deletions: 1,
    });
  });

  test("leaves the real index alone: the new file is still untracked afterwards", async () => {
    write(ws.root, "src/parse.txt", "changed\n");
    write(ws.root, "new.txt", "hello\n");
    const before = sh(ws.root, "status", "--porcelain");
    await ws.diff(["src/parse.txt", "new.txt"]);
    await ws.treeHash();
    expect(sh(ws.root, "status", "--porcelain")).toBe(before);
    expect(before).toBe(" M src/parse.txt\n?? new.txt");
  });

  test("counts a deletion; changes to paths not listed are not in it", async () => {
    rmSync(join(ws.root, "README.md"));
    write(ws.root, "debug.log", "noise\n");
    write(ws.root, "stray.txt", "left by a process\n");
    write(ws.root, "src/parse.txt", "changed by setup\n");
    const d = await ws.diff(["README.md"]);
    expect([d.stat, d.filesChanged, d.insertions, d.deletions]).toEqual([" README.md | 1 -\n 1 file changed, 1 deletion(-)\n", 1, 0, 1]);
  });

  test("countsFromStat reads the summary line, binary-only changes included", () => {
    expect(countsFromStat(" logo.png | Bin 0 -> 3 bytes\n 1 file changed, 0 insertions(+), 0 deletions(-)\n")).toEqual({
      filesChanged: 1,
      insertions: 0,
      deletions: 0,
    });
    expect(countsFromStat("")).toEqual({ filesChanged: 0, insertions: 0, deletions: 0 });
  });
});

describe("changedPaths", () => {
  test("every path the snapshot changes, with its new mode: renames as both paths, deletions as 000000, odd names verbatim", async () => {
    rmSync(join(ws.root, "README.md"));
    write(ws.root, "src/moved.txt", "line one\nline two\nline three\n");
    rmSync(join(ws.root, "src/parse.txt"));
    write(ws.root, 'we"ird\nname.txt', "x\n");
    write(ws.root, "debug.log", "ignored\n");
    const changes = await ws.changedPaths(["README.md", "src/moved.txt", "src/parse.txt", 'we"ird\nname.txt', "never-written.txt"]);
    expect([...changes].sort((a, b) => a.path.localeCompare(b.path))).toEqual([
      { path: "README.md", mode: "000000" },
      { path: "src/moved.txt", mode: "100644" },
      { path: "src/parse.txt", mode: "000000" },
      { path: 'we"ird\nname.txt', mode: "100644" },
    ]);
  });
});

describe("publishedTree", () => {
  test("is the base tree plus exactly the listed paths, whatever else the workspace holds", async () => {
    expect(await ws.publishedTree([])).toBe(baseTree());
    write(ws.root, "stray.txt", "x\n");
    write(ws.root, "README.md", "# setup rewrote me\n");
    expect(await ws.publishedTree(["new.txt"])).toBe(baseTree());
    write(ws.root, "new.txt", "mine\n");
    const mine = await ws.publishedTree(["new.txt"]);
    const other = await clone();
    write(other.root, "new.txt", "mine\n");
    expect([mine === baseTree(), await other.publishedTree(["new.txt"])]).toEqual([false, mine]);
  });

  test("a listed directory, FIFO or path behind a symlink is published as absent", async () => {
    write(ws.root, "dir/inner.txt", "x\n");
    execFileSync("mkfifo", [join(ws.root, "pipe")]);
    symlinkSync("dir", join(ws.root, "link"));
    expect(await ws.publishedTree(["dir", "pipe", "link/inner.txt"])).toBe(baseTree());
  });
});

describe("treeHash", () => {
  test("of a clean clone is the base commit's tree id", async () => {
    expect(await ws.treeHash()).toBe(baseTree());
  });

  test("changes on an edit and comes back when the edit is undone", async () => {
    write(ws.root, "README.md", "# widgets!\n");
    const edited = await ws.treeHash();
    expect(edited).not.toBe(baseTree());
    write(ws.root, "README.md", "# widgets\n");
    expect(await ws.treeHash()).toBe(baseTree());
  });

  test("sees a same-size edit made right after the clone", async () => {
    writeFileSync(join(ws.root, "README.md"), "# gadgets\n"); // same length as "# widgets\n"
    expect(await ws.treeHash()).not.toBe(baseTree());
  });

  test("changes on a new untracked file", async () => {
    write(ws.root, "notes/todo.md", "- a\n");
    expect(await ws.treeHash()).not.toBe(baseTree());
  });

  test("ignores .gitignored files", async () => {
    write(ws.root, "debug.log", "noise\n");
    write(ws.root, "build/out.js", "x\n");
    expect(await ws.treeHash()).toBe(baseTree());
  });

  test("is equal for identical trees in two clones", async () => {
    const other = await clone();
    for (const w of [ws, other]) {
      write(w.root, "src/parse.txt", "rewritten\n");
      write(w.root, "added/file.txt", "same\n");
    }
    write(other.root, "other.log", "only in one clone, ignored\n");
    const [a, b] = [await ws.treeHash(), await other.treeHash()];
    expect(a).toBe(b);
    expect(a).not.toBe(baseTree());
  });
});

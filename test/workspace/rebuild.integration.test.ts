import { chmodSync, existsSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { cloneWorkspace } from "../../src/workspace/clone.js";
import { rebuildWorkspace } from "../../src/workspace/rebuild.js";
import { WorkspaceError } from "../../src/workspace/workspace-error.js";
import { cleanupTempDirs, makeSource, sh, tempDir, write } from "./git-fixtures.js";

afterEach(cleanupTempDirs);

test("base + stored patch rebuilds the same tree, binary files, renames, deletions and modes included", async () => {
  const src = makeSource();
  const ws = await cloneWorkspace({ source: src.dir, dir: join(tempDir(), "ws") });
  write(ws.root, "src/parse.txt", "line one\nline 2\nline three\n");
  write(ws.root, "assets/logo.bin", Buffer.from([0, 1, 2, 255, 0, 10, 13, 0]));
  write(ws.root, "bin/run.sh", "#!/bin/sh\necho hi\n");
  chmodSync(join(ws.root, "bin/run.sh"), 0o755);
  write(ws.root, "docs/.keep", "");
  renameSync(join(ws.root, "README.md"), join(ws.root, "docs/README.md"));
  rmSync(join(ws.root, ".gitignore"));
  const written = ["src/parse.txt", "assets/logo.bin", "bin/run.sh", "docs/.keep", "README.md", "docs/README.md", ".gitignore"];
  const diff = await ws.diff(written);
  const hash = await ws.publishedTree(written);

  // The source moves on after the session started; the rebuild must still start from the base.
  write(src.dir, "later.txt", "later\n");
  sh(src.dir, "add", "-A");
  sh(src.dir, "commit", "--quiet", "-m", "later");

  const rebuilt = await rebuildWorkspace({ source: src.dir, dir: join(tempDir(), "again"), baseCommit: ws.baseCommit, patch: diff.patch });
  expect(rebuilt.baseCommit).toBe(src.head);
  expect(await rebuilt.publishedTree(written)).toBe(hash);
  expect(await rebuilt.treeHash()).toBe(hash);
  expect(await rebuilt.diff(written)).toEqual(diff);
  expect(sh(rebuilt.root, "ls-files", "-s", "--", "bin/run.sh")).toBe(""); // rebuilt in the working tree, not staged
});

test("an empty patch rebuilds the base", async () => {
  const src = makeSource();
  const rebuilt = await rebuildWorkspace({ source: src.dir, dir: join(tempDir(), "again"), baseCommit: src.head, patch: "" });
  expect(await rebuilt.treeHash()).toBe(sh(src.dir, "rev-parse", `${src.head}^{tree}`));
});

test("a patch that does not fit the base fails as patch_failed and changes nothing", async () => {
  const src = makeSource();
  const ws = await cloneWorkspace({ source: src.dir, dir: join(tempDir(), "ws") });
  write(ws.root, "README.md", "# widgets\nmore\n");
  write(ws.root, "src/parse.txt", "other\n");
  const { patch } = await ws.diff(["README.md", "src/parse.txt"]);
  const target = await cloneWorkspace({ source: src.dir, dir: join(tempDir(), "target") });
  write(target.root, "src/parse.txt", "diverged\n");
  const before = await target.treeHash();
  const err = await target.applyPatch(patch).catch((e: unknown) => e);
  expect(WorkspaceError.isInstance(err) && err.code).toBe("patch_failed");
  expect(await target.treeHash()).toBe(before);
});

test("restore puts the publishable files back to a recorded state; ignored files stay", async () => {
  const src = makeSource();
  const ws = await cloneWorkspace({ source: src.dir, dir: join(tempDir(), "ws") });
  write(ws.root, "src/parse.txt", "line one\nline 2\nline three\n");
  write(ws.root, "src/new.txt", "new\n");
  const paths = ["src/new.txt", "src/parse.txt"];
  const recorded = await ws.diff(paths);
  const hash = await ws.treeHash();
  // What a crash may leave: a half-written file, a tracked file deleted, stray output, a dependency install.
  write(ws.root, "src/new.txt", "ne");
  rmSync(join(ws.root, "README.md"));
  write(ws.root, "tmp/coverage.json", "{}");
  write(ws.root, "build/dep.js", "installed\n");
  expect((await ws.restore(recorded.patch, paths)).sort()).toEqual(["README.md", "src/new.txt", "tmp/coverage.json"]);
  expect(await ws.treeHash()).toBe(hash);
  expect(await ws.diff(paths)).toEqual(recorded);
  expect(existsSync(join(ws.root, "build/dep.js"))).toBe(true);
  expect(existsSync(join(ws.root, "tmp"))).toBe(false);
});

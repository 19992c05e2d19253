import { rmSync } from "node:fs";
import { join } from "node:path";
import { cloneWorkspace } from "../../src/workspace/clone.js";
import { git } from "../../src/workspace/git.js";
import type { GitWorkspace } from "../../src/workspace/git-workspace.js";
import { findSpecialFiles } from "../../src/workspace/tree-walk.js";
import { WorkspaceError } from "../../src/workspace/workspace-error.js";
import { devZeroLink, fifo, settlesWithin, socketFile } from "../fakes/special-files.js";
import { cleanupTempDirs, makeSource, sh, tempDir, write } from "./git-fixtures.js";

/** A hang is the failure these tests look for: every call must settle well within this. */
const BOUND_MS = 10_000;

describe("special files in the workspace: git never blocks on them", () => {
  let ws: GitWorkspace;
  let dir: string;
  beforeEach(async () => {
    const src = makeSource();
    dir = join(tempDir(), "clone");
    ws = await cloneWorkspace({ source: src.dir, dir });
  });
  afterAll(() => cleanupTempDirs());

  test("a FIFO named build/.gitignore: treeHash fails at once, naming it", async () => {
    write(dir, ".gitignore", "*.log\n"); // build/ is no longer ignored, so git would enter it
    fifo(dir, "build/.gitignore");
    const err = await settlesWithin(
      "treeHash",
      BOUND_MS,
      ws.treeHash().catch((e: unknown) => e),
    );
    expect(err).toBeInstanceOf(WorkspaceError);
    expect(err).toMatchObject({ code: "special_file" });
    expect((err as Error).message).toBe(
      "build/.gitignore (a fifo): git reads every .gitignore and .gitattributes as a file and would wait for ever on this one; remove it",
    );
    // The published tree reads no .gitignore: only the listed paths, each checked to be a file first.
    expect(await settlesWithin("diff", BOUND_MS, ws.diff(["README.md", "build/.gitignore"]))).toMatchObject({ filesChanged: 0 });
  });

  test("a FIFO named .gitattributes is refused the same way", async () => {
    fifo(dir, "src/.gitattributes");
    write(dir, "src/new.txt", "new\n");
    await expect(settlesWithin("treeHash", BOUND_MS, ws.treeHash())).rejects.toMatchObject({ code: "special_file" });
  });

  test("a FIFO, a socket and a /dev/zero symlink in the tree: hashed within the bound, the symlink as a symlink", async () => {
    const server = await socketFile(dir, "run/app.sock");
    try {
      fifo(dir, "src/pipe");
      devZeroLink(dir, "zero");
      const tree = await settlesWithin("treeHash", BOUND_MS, ws.treeHash());
      const listing = sh(dir, "ls-tree", "-r", tree);
      expect(listing).toMatch(/^120000 blob [0-9a-f]{40}\tzero$/m);
      expect(listing).not.toContain("pipe");
      expect(listing).not.toContain("app.sock");
      expect((await settlesWithin("changedPaths", BOUND_MS, ws.changedPaths(["zero", "src/pipe", "run/app.sock"]))).map((c) => c.path)).toEqual(["zero"]);
    } finally {
      server.close();
    }
  });

  test("a tracked file replaced by a FIFO: the snapshot keeps the base version instead of failing", async () => {
    const before = await ws.treeHash();
    rmSync(join(dir, "README.md"));
    fifo(dir, "README.md");
    expect(await settlesWithin("treeHash", BOUND_MS, ws.treeHash())).toBe(before);
  });

  test("removeSpecialFiles deletes what a run left where git looks, keeps symlinks and ignored directories alone", async () => {
    const server = await socketFile(dir, "s.sock");
    fifo(dir, "build/.gitignore"); // build/ is ignored: git never reads it, and neither do we
    fifo(dir, "src/.gitignore");
    devZeroLink(dir, "zero");
    const removed = await settlesWithin("removeSpecialFiles", BOUND_MS, ws.removeSpecialFiles());
    expect(removed).toEqual([
      { rel: "s.sock", kind: "socket", viaSymlink: false },
      { rel: "src/.gitignore", kind: "fifo", viaSymlink: false },
    ]);
    expect(await findSpecialFiles(dir)).toEqual([{ rel: "zero", kind: "character device", viaSymlink: true }]);
    await settlesWithin("treeHash", BOUND_MS, ws.treeHash());
    server.close();
  });

  test("a git call that blocks is killed at its time limit; an abort ends it at once", async () => {
    write(dir, ".gitignore", "");
    fifo(dir, "build/.gitignore");
    await expect(settlesWithin("git add", BOUND_MS, git(["add", "-A"], { cwd: dir, timeoutMs: 300 }))).rejects.toThrow(
      "git add did not finish within 0.3 s and was stopped",
    );
    const stop = new AbortController();
    const running = git(["add", "-A"], { cwd: dir, signal: stop.signal });
    stop.abort(new Error("stopped by @maintainer"));
    await expect(settlesWithin("git add", BOUND_MS, running)).rejects.toMatchObject({ name: "AbortError" });
  });

  test("a workspace bound to an aborted signal stops before git runs", async () => {
    const stop = new AbortController();
    stop.abort();
    await expect(ws.withSignal(stop.signal).treeHash()).rejects.toMatchObject({ name: "AbortError" });
  });
});

import { mkdirSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cloneWorkspace } from "../../src/workspace/clone.js";
import { type GitWorkspace } from "../../src/workspace/git-workspace.js";
import { bubblewrap } from "../sandbox/sandbox-fixture.js";
import { cleanupTempDirs, makeSource, sh, tempDir, write } from "./git-fixtures.js";

/**
 * The published tree, its diff and changed paths are kept per session and the snapshot index is
 * seeded once (published-snapshot.ts, snapshot-index.ts). Nothing that changes a file may be hidden
 * by that: not a sandboxed command, not an edit, not a write that keeps the size and the mtime.
 */
let ws: GitWorkspace;

beforeEach(async () => {
  const src = makeSource();
  ws = await cloneWorkspace({ source: src.dir, dir: join(tempDir(), "ws") });
});
afterEach(cleanupTempDirs);

const FILE = "src/parse.txt";
const blobAt = (tree: string, path: string) => sh(ws.root, "rev-parse", `${tree}:${path}`);

/** Rewrites `path` with `content` (same length as before) and puts its mtime back, as a sly command could. */
function rewriteKeepingMtime(path: string, content: string): void {
  const abs = join(ws.root, path);
  const before = statSync(abs);
  writeFileSync(abs, content);
  utimesSync(abs, before.atime, before.mtime);
}

test("a sandboxed command that rewrites a published file, keeping its size and mtime: the next publishedTree, diff and treeHash see it", async () => {
  write(ws.root, FILE, "line one\nline 2\nline three\n");
  const paths = [FILE];
  const first = await ws.publishedTree(paths);
  const snapshot = await ws.treeHash(paths);
  const mtime = Math.floor(statSync(join(ws.root, FILE)).mtimeMs / 1000);
  const sandbox = await bubblewrap();
  const r = await sandbox.run({
    argv: ["/bin/sh", "-c", `printf 'line one\\nline X\\nline three\\n' > ${FILE} && touch -d @${mtime} ${FILE}`],
    workspace: ws.root,
    timeoutMs: 20_000,
  });
  expect(r.exitCode).toBe(0);
  expect(Math.floor(statSync(join(ws.root, FILE)).mtimeMs / 1000)).toBe(mtime);

  const second = await ws.publishedTree(paths);
  expect(second).not.toBe(first);
  expect(sh(ws.root, "cat-file", "blob", blobAt(second, FILE))).toBe("line one\nline X\nline three");
  expect((await ws.diff(paths)).patch).toContain("+line X");
  expect(await ws.treeHash(paths)).not.toBe(snapshot);
  expect(await ws.changedSince(snapshot, paths)).toEqual([FILE]);
});

test("an edit right after a publishedTree, same size and mtime: the next publishedTree is the new one, and going back gives the old tree again", async () => {
  write(ws.root, FILE, "line one\nline 2\nline three\n");
  const first = await ws.publishedTree([FILE]);
  expect((await ws.diff([FILE])).patch).toContain("+line 2");
  rewriteKeepingMtime(FILE, "line one\nline 3\nline three\n");
  const second = await ws.publishedTree([FILE]);
  expect(second).not.toBe(first);
  expect((await ws.diff([FILE])).patch).toContain("+line 3");
  rewriteKeepingMtime(FILE, "line one\nline 2\nline three\n");
  expect(await ws.publishedTree([FILE])).toBe(first);
  expect((await ws.changedPaths([FILE])).map((c) => c.path)).toEqual([FILE]);
});

test("a path the ledger no longer lists, or one deleted, is the base's again: the kept index is rebuilt, not patched", async () => {
  const baseTree = sh(ws.root, "rev-parse", "HEAD^{tree}");
  write(ws.root, FILE, "changed\n");
  write(ws.root, "new.txt", "new\n");
  const both = await ws.publishedTree([FILE, "new.txt"]);
  expect(await ws.publishedTree(["new.txt"])).not.toBe(both);
  expect(blobAt(await ws.publishedTree(["new.txt"]), FILE)).toBe(blobAt(baseTree, FILE));
  writeFileSync(join(ws.root, FILE), "");
  const emptied = await ws.publishedTree([FILE, "new.txt"]);
  expect(sh(ws.root, "cat-file", "-s", blobAt(emptied, FILE))).toBe("0");
  rmSync(join(ws.root, FILE));
  const deleted = await ws.publishedTree([FILE, "new.txt"]);
  expect(sh(ws.root, "ls-tree", "--name-only", deleted, "--", FILE)).toBe("");
  expect((await ws.changedPaths([FILE, "new.txt"])).map((c) => [c.path, c.mode])).toEqual([
    ["new.txt", "100644"],
    [FILE, "000000"],
  ]);
});

test("changed paths list a rename as its two paths, in byte order, like --no-renames", async () => {
  const text = "a line long enough that git sees the same file under its new name\n".repeat(3);
  write(ws.root, "src/parse.txt", text);
  sh(ws.root, "-c", "user.name=f", "-c", "user.email=f@f", "commit", "-qam", "longer");
  const moved = await cloneWorkspace({ source: ws.root, dir: join(tempDir(), "ws2") });
  mkdirSync(join(moved.root, "Z"));
  renameSync(join(moved.root, "src/parse.txt"), join(moved.root, "Z/parse.txt"));
  write(moved.root, "é.txt", "accent\n");
  const paths = ["src/parse.txt", "Z/parse.txt", "é.txt"];
  const diff = await moved.diff(paths);
  expect(diff.patch).toContain("rename from src/parse.txt");
  expect((await moved.changedPaths(paths)).map((c) => [c.path, c.mode])).toEqual([
    ["Z/parse.txt", "100644"],
    ["src/parse.txt", "000000"],
    ["é.txt", "100644"],
  ]);
});

test("a .gitattributes that changes how a published file diffs changes the diff, though the file did not change", async () => {
  write(ws.root, FILE, "line one\nline 2\nline three\n");
  expect((await ws.diff([FILE])).patch).toContain("+line 2");
  write(ws.root, "src/.gitattributes", "parse.txt -diff\n");
  // `-diff` makes the file binary for diff; with --binary that is a binary patch instead of lines.
  expect((await ws.diff([FILE])).patch).toContain("GIT binary patch");
});

test("a repo config found safe earlier and made unsafe afterwards is refused: the stat cache never hides a change", async () => {
  const config = join(ws.root, ".git", "config");
  // The guard remembers a config only once its ctime tick is well over; wait for that condition.
  const ctime = statSync(config).ctimeMs;
  while (Date.now() < ctime + 250) await new Promise((r) => setImmediate(r));
  await ws.treeHash();
  await ws.treeHash();
  sh(ws.root, "config", "filter.evil.clean", "touch /tmp/pwned");
  await expect(ws.treeHash()).rejects.toMatchObject({ code: "unsafe_config" });
  await expect(ws.publishedTree([FILE])).rejects.toMatchObject({ code: "unsafe_config" });
});

test("a clone removed and made again at the same path (a rebuilt workspace) gets a snapshot of its own, not the old clone's index", async () => {
  const src = makeSource();
  const dir = join(tempDir(), "again");
  const first = await cloneWorkspace({ source: src.dir, dir });
  write(first.root, FILE, "the edit, as the ledger recorded it\n");
  const before = await first.publishedTree([FILE]);
  rmSync(dir, { recursive: true, force: true });
  // The rebuild writes the same bytes into a new clone at the same path: the edit's blob and tree
  // were only ever in the old clone's objects.
  const second = await cloneWorkspace({ source: src.dir, dir });
  write(second.root, FILE, "the edit, as the ledger recorded it\n");
  const after = await second.publishedTree([FILE]);
  expect(after).toBe(before); // same content, same tree id…
  expect(sh(second.root, "cat-file", "-t", after)).toBe("tree"); // …and this clone has it
  expect(sh(second.root, "show", `${after}:${FILE}`)).toBe("the edit, as the ledger recorded it");
  expect((await second.diff([FILE])).filesChanged).toBe(1);
});

import { execFileSync } from "node:child_process";
import { readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cloneWorkspace } from "../../src/workspace/clone.js";
import { snapshotState } from "../../src/workspace/session-snapshot.js";
import { cleanupTempDirs, makeSource, sh, tempDir } from "./git-fixtures.js";

/**
 * git trusts an index entry's stat data only when the file's mtime is in an earlier second than the
 * one the index was written in; the others are "racy" and read again by every `add -A`. A session's
 * first snapshot usually comes in the second its clone was checked out, and a seed refreshed then kept
 * the last second of the checkout racy for the whole session (bench/snapshot.ts: 0 to 1,000 of 20,000
 * files, treeHash 75 → 100 ms). The seed's refresh waits for that second to be over.
 */
afterEach(cleanupTempDirs);

/** Entries of `index` whose mtime is in the index file's own second or later. */
function racyEntries(root: string, index: string): string[] {
  const seconds = Math.floor(statSync(index).mtimeMs / 1000);
  const listed = execFileSync("git", ["ls-files", "--debug"], { cwd: root, env: { ...process.env, GIT_INDEX_FILE: index }, encoding: "utf8" });
  return [...listed.matchAll(/^(\S.*)\n\s+ctime: \d+:\d+\n\s+mtime: (\d+):/gm)].filter((m) => Number(m[2]) >= seconds).map((m) => m[1]!);
}

test("a first snapshot in the second of the checkout: once that second is over the seed's stat data is trusted, and a same-size rewrite before then is seen", async () => {
  const ws = await cloneWorkspace({ source: makeSource().dir, dir: join(tempDir(), "ws") });
  const files = sh(ws.root, "ls-files").split("\n");
  // As if the checkout and its index were written in a second that is not over yet.
  const at = new Date(Math.ceil(Date.now() / 1000) * 1000 + 500);
  for (const f of [...files, ".git/index"]) utimesSync(join(ws.root, f), at, at);
  const first = await ws.treeHash();

  // Same size and mtime: only reading the file shows the change.
  const file = join(ws.root, files[0]!);
  const text = readFileSync(file, "utf8");
  writeFileSync(file, (text[0] === "x" ? "y" : "x") + text.slice(1));
  utimesSync(file, at, at);
  expect(await ws.treeHash()).not.toBe(first);
  writeFileSync(file, text);
  utimesSync(file, at, at);

  const over = Math.floor(at.getTime() / 1000) * 1000 + 1100;
  while (Date.now() < over) await new Promise((r) => setTimeout(r, over - Date.now()));
  expect(await ws.treeHash()).toBe(first);
  expect(racyEntries(ws.root, snapshotState(ws.root, ws.baseCommit).seedIndex)).toEqual([]);
});

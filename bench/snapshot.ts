/**
 * What a session's snapshot costs on a large repository (bench/large-repo.ts, generated here) next to
 * the raw plumbing that any snapshot needs, interleaved in one run:
 * - snapshot_treehash: `treeHash()` (special-file walk, seeded index, `add -A`, `write-tree`) against
 *   `add -A` + `write-tree` on a copy of an index that already has every file's stat data;
 * - snapshot_diff: `diff(paths)` after a file changed against `update-index` + `diff --cached` on an
 *   index that already holds the base.
 * One file changes before every measurement, so neither side can answer from a cache.
 * Run alone: `npx tsx bench/snapshot.ts`.
 */
import { execFile } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { cloneWorkspace } from "../src/workspace/clone.js";
import { figure, interleaved } from "./ab.js";
import type { FigureResult } from "./figure.js";
import { FILES, gitIn, makeLargeRepo } from "./large-repo.js";

const ROUNDS = 15;
const GOAL = 1.2;
const run = promisify(execFile);
const CHANGED = "src/mod000/file0.txt";

export async function benchSnapshot(): Promise<Record<string, FigureResult>> {
  const root = mkdtempSync(path.join(os.tmpdir(), "pg-bench-snapshot-"));
  try {
    const bytes = makeLargeRepo(path.join(root, "src"));
    const ws = await cloneWorkspace({ source: path.join(root, "src"), dir: path.join(root, "ws") });
    const base = ws.baseCommit;
    const plain = (args: string[], index: string) =>
      run("git", ["-c", "core.hooksPath=/dev/null", ...args], {
        cwd: ws.root,
        maxBuffer: 1 << 30,
        env: { ...process.env, GIT_INDEX_FILE: index, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" },
      });
    // The raw side's index: the clone's, refreshed (every file's stat data), copied before each add.
    gitIn(ws.root, ["update-index", "-q", "--refresh"]);
    const rawSeed = path.join(root, "raw-seed");
    const rawIndex = path.join(root, "raw-index");
    copyFileSync(path.join(ws.root, ".git", "index"), rawSeed);
    const diffIndex = path.join(root, "diff-index");
    gitIn(ws.root, ["read-tree", `${base}^{tree}`], { GIT_INDEX_FILE: diffIndex });
    let n = 0;
    const change = async () => writeFileSync(path.join(ws.root, CHANGED), `changed ${n++}\n`);
    await ws.treeHash(); // the seed is made once per session
    const note = `${FILES} files, ${Math.round(bytes / 1e6)} MB, ${ROUNDS} rounds`;

    const tree = await interleaved(
      ROUNDS,
      () => ws.treeHash(),
      async () => {
        copyFileSync(rawSeed, rawIndex);
        await plain(["add", "-A", "--", "."], rawIndex);
        await plain(["write-tree"], rawIndex);
      },
      change,
    );
    const flags = [
      "--cached",
      "--binary",
      "--stat=120",
      "--patch",
      "--full-index",
      "--no-color",
      "--no-ext-diff",
      "--no-textconv",
      "--find-renames",
      base,
      "--",
    ];
    const diff = await interleaved(
      ROUNDS,
      () => ws.diff([CHANGED]),
      async () => {
        await plain(["update-index", "--add", "--", CHANGED], diffIndex);
        await plain(["diff", ...flags], diffIndex);
      },
      change,
    );
    return {
      snapshot_treehash: figure(tree, { a: "treeHash()", b: "add -A + write-tree", goal: GOAL, note }),
      snapshot_diff: figure(diff, { a: "diff(paths)", b: "update-index + diff --cached", goal: GOAL, note }),
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) console.log(JSON.stringify(await benchSnapshot(), null, 2));

import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { findWalk } from "../../src/sandbox/credential-walk.js";
import { pruneKeptWalks } from "../../src/sandbox/credential-walk-prune.js";
import { keepWalk, keptWalk, nowNs, recordFile } from "../../src/sandbox/credential-walk-store.js";
import { tempWorkspace } from "./sandbox-fixture.js";

/**
 * The kept toolchain walks outlive every session, so they are pruned: a record no process would take
 * again (its toolchain updated or removed, the record broken or misplaced, a writer's temporary file
 * left by a crash) goes; a record still true, and files the store never writes, stay.
 */
const kindOf = async (p: string) => (existsSync(p) ? ("file" as const) : null);

let root: ReturnType<typeof tempWorkspace>;
beforeEach(() => (root = tempWorkspace("pg-walk-prune-")));
afterEach(() => root.cleanup());

/** A toolchain folder `name` walked and kept in the store; its record's path. */
async function keptToolchain(store: string, name: string): Promise<{ tree: string; record: string }> {
  const tree = join(root.dir, name);
  for (const f of ["lib/x/readme.txt", "a/b/.npmrc"]) {
    mkdirSync(dirname(join(tree, f)), { recursive: true });
    writeFileSync(join(tree, f), "x\n");
  }
  const walk = await findWalk(tree);
  await keepWalk(store, tree, walk!, nowNs() + 60_000_000_000n);
  const record = recordFile(store, tree);
  expect(existsSync(record)).toBe(true);
  return { tree, record };
}

test("a record still true stays and is still taken; changed, removed, broken and misplaced ones go", async () => {
  const store = join(root.dir, "toolchain-walks");
  const same = await keptToolchain(store, "same");
  const updated = await keptToolchain(store, "updated");
  const removed = await keptToolchain(store, "removed");
  const broken = await keptToolchain(store, "broken");
  const misplaced = await keptToolchain(store, "misplaced");
  writeFileSync(join(updated.tree, "lib/x/new-version.txt"), "2\n");
  rmSync(removed.tree, { recursive: true });
  writeFileSync(broken.record, "{not json");
  // A true record of `same` under another directory's name would stand for a tree it never read.
  copyFileSync(same.record, misplaced.record);
  writeFileSync(join(store, "notes.txt"), "an operator's file\n");

  expect(await pruneKeptWalks(store)).toEqual({ removed: 4, kept: 1 });
  expect(readdirSync(store).sort()).toEqual([same.record.slice(store.length + 1), "notes.txt"].sort());
  expect(await keptWalk(store, same.tree, kindOf)).not.toBeNull();
  expect(await pruneKeptWalks(store)).toEqual({ removed: 0, kept: 1 });
});

test("a temporary file whose writer died goes once it is old; one being written now stays", async () => {
  const store = join(root.dir, "toolchain-walks");
  const t = await keptToolchain(store, "tc");
  const abandoned = `${t.record}.4242.1700000000000.tmp`;
  const fresh = `${t.record}.4243.${Date.now()}.tmp`;
  writeFileSync(abandoned, "{");
  writeFileSync(fresh, "{");
  const hourAgo = new Date(Date.now() - 3_600_000);
  utimesSync(abandoned, hourAgo, hourAgo);

  expect(await pruneKeptWalks(store)).toEqual({ removed: 1, kept: 1 });
  expect(existsSync(abandoned)).toBe(false);
  expect(existsSync(fresh)).toBe(true);
});

test("no store yet: nothing to prune", async () => {
  expect(await pruneKeptWalks(join(root.dir, "never-made"))).toEqual({ removed: 0, kept: 0 });
});

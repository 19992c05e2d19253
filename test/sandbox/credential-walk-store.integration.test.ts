import { existsSync, mkdirSync, readdirSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { findWalk, type TreeWalk } from "../../src/sandbox/credential-walk.js";
import { keepWalk, keptWalk, nowNs } from "../../src/sandbox/credential-walk-store.js";
import { tempWorkspace } from "./sandbox-fixture.js";

/**
 * A toolchain's credential walk kept across processes is taken only while the tree is as it was
 * walked: a credential file or folder put anywhere in it afterwards is found by walking again.
 */
const kindOf = async (p: string) => (existsSync(p) ? ("file" as const) : null);
const rel = (tree: string, w: { path: string }[]) => w.map((e) => e.path.slice(tree.length + 1)).sort();

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()!();
});

/**
 * A tree with a credential at depth, walked by find, removed after the test; `later` stands for a
 * walk started once its stamps had settled.
 */
async function walkedTree(prefix: string): Promise<{ tree: string; store: string; walk: TreeWalk; later: bigint }> {
  const root = tempWorkspace(prefix);
  cleanups.push(root.cleanup);
  const tree = join(root.dir, "toolchain");
  for (const f of ["lib/rustlib/etc/readme.txt", "a/b/c/.npmrc", "share/doc/x.md"]) {
    mkdirSync(dirname(join(tree, f)), { recursive: true });
    writeFileSync(join(tree, f), "x\n");
  }
  const walk = await findWalk(tree);
  expect(walk).not.toBeNull();
  return { tree, store: join(root.dir, "store"), walk: walk!, later: nowNs() + 60_000_000_000n };
}

test("a kept walk stands in for the walk while nothing under the toolchain changed", async () => {
  const t = await walkedTree("pg-walk-kept-");
  await keepWalk(t.store, t.tree, t.walk, t.later);
  expect(readdirSync(t.store)).toHaveLength(1);
  const kept = await keptWalk(t.store, t.tree, kindOf);
  expect(kept).not.toBeNull();
  expect(rel(t.tree, kept!)).toEqual(["a/b/c/.npmrc"]);
});

test.each([
  ["a credential file in a folder the walk read", "lib/rustlib/etc/credentials.toml"],
  ["a credential file in a new folder", "lib/rustlib/new/deeper/.netrc"],
  ["a credential folder at the root", ".aws/credentials"],
])("%s, added after the walk was kept, voids it and is found by the walk again", async (_what, added) => {
  const t = await walkedTree("pg-walk-added-");
  await keepWalk(t.store, t.tree, t.walk, t.later);
  mkdirSync(dirname(join(t.tree, added)), { recursive: true });
  writeFileSync(join(t.tree, added), "token=s3cr3t\n");
  expect(await keptWalk(t.store, t.tree, kindOf)).toBeNull();
  const again = await findWalk(t.tree);
  expect(rel(t.tree, again!.entries)).toContain(added.startsWith(".aws") ? ".aws" : added);
});

test("a folder moved away and back voids the kept walk: its parent changed", async () => {
  const t = await walkedTree("pg-walk-replaced-");
  await keepWalk(t.store, t.tree, t.walk, t.later);
  renameSync(join(t.tree, "share"), join(t.tree, "share-old"));
  renameSync(join(t.tree, "share-old"), join(t.tree, "share"));
  expect(await keptWalk(t.store, t.tree, kindOf)).toBeNull();
});

test("a walk whose folders changed just before it started is not kept: the file system's clock may not have moved since", async () => {
  const t = await walkedTree("pg-walk-racy-");
  await keepWalk(t.store, t.tree, t.walk, nowNs());
  expect(await keptWalk(t.store, t.tree, kindOf)).toBeNull();
  expect(existsSync(t.store) ? readdirSync(t.store) : []).toEqual([]);
});

test("a kept record that does not read as one, or names another tree, means walking again", async () => {
  const t = await walkedTree("pg-walk-broken-");
  await keepWalk(t.store, t.tree, t.walk, t.later);
  const [file] = readdirSync(t.store);
  const record = join(t.store, file!);
  writeFileSync(record, "{not json");
  expect(await keptWalk(t.store, t.tree, kindOf)).toBeNull();
  writeFileSync(record, JSON.stringify({ format: "patchgate-credential-walk-1", dir: t.tree, dirs: [], found: [] }));
  expect(await keptWalk(t.store, t.tree, kindOf)).toBeNull();
  writeFileSync(record, JSON.stringify({ format: "patchgate-credential-walk-1", dir: "/elsewhere", dirs: t.walk.dirs, found: [] }));
  expect(await keptWalk(t.store, t.tree, kindOf)).toBeNull();
});

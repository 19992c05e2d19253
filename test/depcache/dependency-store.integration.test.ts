import {
  existsSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
  writeSync,
  closeSync,
  lstatSync,
} from "node:fs";
import { join } from "node:path";
import { DependencyStore } from "../../src/depcache/dependency-store.js";
import { tempDir } from "../helpers/git-fixture.js";

const KEY_A = "a".repeat(40);
const KEY_B = "b".repeat(40);
const KEY_C = "c".repeat(40);

describe("dependency store", () => {
  const dirs: string[] = [];
  const fresh = (p: string) => {
    const d = tempDir(p);
    dirs.push(d);
    return d;
  };
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  function workspaceWithDeps(): string {
    const ws = fresh("pg-dep-ws-");
    mkdirSync(join(ws, "node_modules/left-pad/.bin"), { recursive: true });
    writeFileSync(join(ws, "node_modules/left-pad/index.js"), "module.exports = 1;\n");
    symlinkSync("../index.js", join(ws, "node_modules/left-pad/.bin/lp"));
    mkdirSync(join(ws, "packages/a/node_modules/x"), { recursive: true });
    writeFileSync(join(ws, "packages/a/node_modules/x/i.js"), "x\n");
    return ws;
  }

  test("store, then restore into another workspace and session cache: the same files, links kept as links, download caches left out", async () => {
    const store = new DependencyStore(fresh("pg-dep-root-"), 1e9);
    const ws = workspaceWithDeps();
    const cache = fresh("pg-dep-cache-");
    mkdirSync(join(cache, "go/pkg/mod"), { recursive: true });
    writeFileSync(join(cache, "go/pkg/mod/m.txt"), "module\n");
    mkdirSync(join(cache, "npm/_cacache"), { recursive: true });
    writeFileSync(join(cache, "npm/_cacache/blob"), "tarball\n");
    const meta = await store.store({ key: KEY_A, repo: "cli:/r", command: "npm ci", paths: ["node_modules", "packages/a/node_modules"] }, ws, cache);
    expect(meta.bytes).toBeGreaterThan(0);

    const ws2 = fresh("pg-dep-ws2-");
    mkdirSync(join(ws2, "packages/a"), { recursive: true });
    mkdirSync(join(ws2, "node_modules/stale"), { recursive: true });
    const cache2 = fresh("pg-dep-cache2-");
    const restored = await store.restore(KEY_A, ws2, cache2);
    expect(restored?.paths).toEqual(["node_modules", "packages/a/node_modules"]);
    expect(readFileSync(join(ws2, "node_modules/left-pad/index.js"), "utf8")).toBe("module.exports = 1;\n");
    expect(lstatSync(join(ws2, "node_modules/left-pad/.bin/lp")).isSymbolicLink()).toBe(true);
    expect(existsSync(join(ws2, "node_modules/stale"))).toBe(false);
    expect(readFileSync(join(ws2, "packages/a/node_modules/x/i.js"), "utf8")).toBe("x\n");
    expect(readFileSync(join(cache2, "go/pkg/mod/m.txt"), "utf8")).toBe("module\n");
    expect(existsSync(join(cache2, "npm"))).toBe(false);
    expect(await store.restore(KEY_B, ws2, cache2)).toBeNull();
  });

  test("never shared writable: a session writing into a restored file in place leaves the cache as it was (a hardlink would not)", async () => {
    const root = fresh("pg-dep-root-");
    const store = new DependencyStore(root, 1e9);
    await store.store({ key: KEY_A, repo: "r", command: "c", paths: ["node_modules"] }, workspaceWithDeps(), undefined);
    const cached = join(root, "entries", KEY_A, "tree/node_modules/left-pad/index.js");
    const ws = fresh("pg-dep-ws-");
    await store.restore(KEY_A, ws, undefined);
    const overwriteInPlace = (file: string) => {
      const fd = openSync(file, "r+");
      writeSync(fd, "HACKED", 0);
      closeSync(fd);
    };
    overwriteInPlace(join(ws, "node_modules/left-pad/index.js"));
    expect(readFileSync(cached, "utf8")).toBe("module.exports = 1;\n");
    // Control: the same write through a hardlinked copy reaches the cache.
    const linked = join(fresh("pg-dep-link-"), "index.js");
    linkSync(cached, linked);
    overwriteInPlace(linked);
    expect(readFileSync(cached, "utf8")).toMatch(/^HACKED/);
  });

  test("evicted by size, least recently used first; a restore counts as a use", async () => {
    const root = fresh("pg-dep-root-");
    const ws = workspaceWithDeps();
    const probe = new DependencyStore(fresh("pg-dep-probe-"), 1e9);
    const one = (await probe.store({ key: KEY_A, repo: "r", command: "c", paths: ["node_modules"] }, ws, undefined)).bytes;
    // Room for two entries, not three.
    const store = new DependencyStore(root, one * 2 + one / 2);
    await store.store({ key: KEY_A, repo: "r", command: "c", paths: ["node_modules"] }, ws, undefined);
    await store.store({ key: KEY_B, repo: "r", command: "c", paths: ["node_modules"] }, ws, undefined);
    await new Promise((r) => setTimeout(r, 5));
    await store.restore(KEY_A, fresh("pg-dep-ws-"), undefined);
    await store.store({ key: KEY_C, repo: "r", command: "c", paths: ["node_modules"] }, ws, undefined);
    expect((await store.entries()).map((e) => e.key).sort()).toEqual([KEY_A, KEY_C]);
    // An entry larger than the whole cache is not kept at all.
    const tiny = new DependencyStore(fresh("pg-dep-root-"), 10);
    await tiny.store({ key: KEY_A, repo: "r", command: "c", paths: ["node_modules"] }, ws, undefined);
    expect(await tiny.entries()).toEqual([]);
  });

  test("a restore never writes through a symlinked directory of the workspace, and undoes what it began", async () => {
    const store = new DependencyStore(fresh("pg-dep-root-"), 1e9);
    await store.store({ key: KEY_A, repo: "r", command: "c", paths: ["node_modules", "packages/a/node_modules"] }, workspaceWithDeps(), undefined);
    const ws = fresh("pg-dep-ws-");
    const outside = fresh("pg-dep-outside-");
    symlinkSync(outside, join(ws, "packages"));
    await expect(store.restore(KEY_A, ws, undefined)).rejects.toThrow("packages/a/node_modules leaves the workspace");
    expect(existsSync(join(outside, "a"))).toBe(false);
    expect(existsSync(join(ws, "node_modules"))).toBe(false);
  });

  test("what a crash leaves: a staging directory is removed once stale; an entry without meta.json is a miss", async () => {
    const root = fresh("pg-dep-root-");
    const store = new DependencyStore(root, 1e9);
    mkdirSync(join(root, "tmp/deadbeef/tree"), { recursive: true });
    mkdirSync(join(root, "tmp/fresh/tree"), { recursive: true });
    const old = new Date(Date.now() - 2 * 3600_000);
    utimesSync(join(root, "tmp/deadbeef"), old, old);
    mkdirSync(join(root, "entries", KEY_B, "tree"), { recursive: true });
    await store.evict();
    expect([existsSync(join(root, "tmp/deadbeef")), existsSync(join(root, "tmp/fresh"))]).toEqual([false, true]);
    expect(await store.restore(KEY_B, fresh("pg-dep-ws-"), undefined)).toBeNull();
    await expect(store.lookup("../etc")).rejects.toThrow("not a dependency cache key");
  });
});

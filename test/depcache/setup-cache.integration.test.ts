import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DependencyStore } from "../../src/depcache/dependency-store.js";
import { openSetupCache } from "../../src/depcache/setup-cache.js";
import { withDependencyCache } from "../../src/runs/cached-setup.js";
import type { RunResult } from "../../src/runs/sandbox-run.js";
import type { ToolContext } from "../../src/tools/tool.js";
import { makeRepo, tempDir } from "../helpers/git-fixture.js";

/** When an entry is stored, and when not: the rules of setup-cache.ts on a real git clone. */
describe("dependency cache around a setup", () => {
  const cleanups: (() => void)[] = [];
  afterAll(() => cleanups.forEach((c) => c()));

  function world() {
    const repo = makeRepo({ "package.json": '{"name":"x"}\n', "package-lock.json": "{}\n", "src/a.js": "a\n" });
    const root = tempDir("pg-setupcache-");
    cleanups.push(repo.cleanup, () => rmSync(root, { recursive: true, force: true }));
    const store = new DependencyStore(join(root, "deps"), 1e9);
    let n = 0;
    const session = () => {
      const ws = join(root, `ws${++n}`);
      execFileSync("git", ["clone", "-q", repo.dir, ws]);
      const sessionCache = join(root, `cache${n}`);
      mkdirSync(sessionCache);
      const baseCommit = execFileSync("git", ["rev-parse", "HEAD"], { cwd: ws, encoding: "utf8" }).trim();
      const ctx = {
        workspace: { root: ws, baseCommit },
        state: { task: { source: { kind: "cli", repo: repo.dir } }, toolchains: null },
        dependencyCache: { store, sessionCache },
      } as unknown as ToolContext;
      return { ws, sessionCache, ctx };
    };
    return { session, store };
  }
  const install = (ws: string) => {
    mkdirSync(join(ws, "node_modules/dep"), { recursive: true });
    writeFileSync(join(ws, "node_modules/dep/index.js"), "1\n");
  };
  const passed: RunResult = { exitCode: 0, signal: null, stdout: "", stderr: "", truncated: false, timedOut: false, durationMs: 1, removedSpecial: [] };

  test("stored after a setup that added dependencies; the next session restores instead of running", async () => {
    const { session, store } = world();
    const a = session();
    const first = await withDependencyCache(a.ctx, "npm ci", true, async () => (install(a.ws), passed));
    expect(first.dependencyCache).toMatchObject({ outcome: "stored", paths: ["node_modules"] });
    await store.settled();
    const b = session();
    let ran = 0;
    const second = await withDependencyCache(b.ctx, "npm ci", true, async () => (ran++, passed));
    expect({ ran, outcome: second.dependencyCache?.outcome, exit: second.res.exitCode }).toEqual({ ran: 0, outcome: "restored", exit: 0 });
    expect(second.res.stdout).toMatch(/^patchgate: restored from the dependency cache \(0\.0 MB: node_modules\) instead of running `npm ci`/);
  });

  test("not stored: the session's cache was written before setup, setup changed a tracked file, or added nothing", async () => {
    const { session, store } = world();
    const a = session();
    writeFileSync(join(a.sessionCache, "left-by-the-plan-phase"), "x");
    const cache = (await openSetupCache(a.ctx, "npm ci"))!;
    install(a.ws);
    expect(await cache.store()).toMatchObject({ outcome: "not_stored", reason: "the session's cache directory was written to before setup" });

    const b = session();
    const changed = await withDependencyCache(
      b.ctx,
      "npm ci",
      true,
      async () => (install(b.ws), writeFileSync(join(b.ws, "package-lock.json"), '{"v":3}\n'), passed),
    );
    expect(changed.dependencyCache).toMatchObject({ outcome: "not_stored", reason: "setup changed tracked files (package-lock.json)" });

    const c = session();
    const nothing = await withDependencyCache(c.ctx, "npm ci", true, async () => passed);
    expect(nothing.dependencyCache).toMatchObject({ outcome: "not_stored", reason: "setup added nothing to the workspace" });
    const failed = await withDependencyCache(session().ctx, "npm ci", true, async () => ({ ...passed, exitCode: 1 }));
    expect(failed.dependencyCache).toBeUndefined();
    await store.settled();
    expect(await store.entries()).toEqual([]);
  });

  test("without the network verdict (not the maintainer's tree) the cache is neither read nor written", async () => {
    const { session, store } = world();
    const a = session();
    await withDependencyCache(a.ctx, "npm ci", true, async () => (install(a.ws), passed));
    await store.settled();
    const b = session();
    let ran = 0;
    const offline = await withDependencyCache(b.ctx, "npm ci", false, async () => (ran++, install(b.ws), passed));
    expect({ ran, record: offline.dependencyCache, entries: (await store.entries()).length }).toEqual({ ran: 1, record: undefined, entries: 1 });
  });
});

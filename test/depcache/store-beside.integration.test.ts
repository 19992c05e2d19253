import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DependencyStore, type TakenEntry } from "../../src/depcache/dependency-store.js";
import type { SandboxResult, SandboxRunRequest } from "../../src/sandbox/types.js";
import { ensureSetup } from "../../src/runs/test-setup.js";
import type { SetupContext } from "../../src/runs/run-context.js";
import { writeRegularFile } from "../../src/tools/support/text.js";
import { makeRepo, tempDir } from "../helpers/git-fixture.js";

/**
 * The dependency-cache store is off the session's path: what an entry holds is taken when setup
 * ends, and the rest of the store (the copy, its size, the rename into place) ends beside the session.
 */

/** A store whose commits wait until `release()`: the slow store a session must not wait for. */
class HeldStore extends DependencyStore {
  private open!: () => void;
  private readonly gate = new Promise<void>((resolve) => (this.open = resolve));
  release(): void {
    this.open();
  }
  override async take(...args: Parameters<DependencyStore["take"]>): Promise<TakenEntry> {
    const taken = await super.take(...args);
    return { workspace: taken.workspace, commit: () => this.gate.then(() => taken.commit()) };
  }
}

const cleanups: (() => void)[] = [];
afterAll(() => cleanups.forEach((c) => c()));

const passed: SandboxResult = { exitCode: 0, signal: null, stdout: "", stderr: "", truncated: false, timedOut: false, durationMs: 1 };

/** A cloned repository with a setup that installs node_modules/dep, run by a stand-in for bubblewrap (writes by replacing). */
function world(store: DependencyStore) {
  const repo = makeRepo({ "package.json": '{"name":"x"}\n', "package-lock.json": "{}\n", "src/a.js": "a\n" });
  const root = tempDir("pg-store-beside-");
  cleanups.push(repo.cleanup, () => rmSync(root, { recursive: true, force: true }));
  const ws = join(root, "ws");
  execFileSync("git", ["clone", "-q", repo.dir, ws]);
  const sessionCache = join(root, "cache");
  mkdirSync(sessionCache);
  const baseCommit = execFileSync("git", ["rev-parse", "HEAD"], { cwd: ws, encoding: "utf8" }).trim();
  const sandbox = {
    backend: "bubblewrap" as const,
    writesByReplacing: true,
    run: async (req: SandboxRunRequest) => {
      mkdirSync(join(req.workspace, "node_modules/dep"), { recursive: true });
      writeFileSync(join(req.workspace, "node_modules/dep/index.js"), "as setup made it\n");
      return passed;
    },
  };
  const ctx = {
    sandbox,
    workspace: { root: ws, baseCommit, removeSpecialFiles: async () => [] },
    publishable: [],
    limits: {},
    allowHosts: [],
    setupConfig: { command: "npm ci", network: true, timeoutSeconds: 60 },
    state: { setup: null, latestDiff: null, sessionId: "s", task: { source: { kind: "cli", repo: repo.dir } }, toolchains: null },
    dependencyCache: { store, sessionCache },
  } as unknown as SetupContext;
  return { ws, ctx };
}

test("setup_run is ready to record while the entry's commit is still held; the entry is in place once it ends", async () => {
  const root = tempDir("pg-held-store-");
  cleanups.push(() => rmSync(root, { recursive: true, force: true }));
  const store = new HeldStore(root, 1e9);
  const { ctx } = world(store);
  // With the commit back on the setup's path, ensureSetup would wait for release() and never return.
  const setup = await ensureSetup(ctx);
  expect(setup.ran && setup.event.dependencyCache).toMatchObject({ outcome: "stored", paths: ["node_modules"] });
  expect(await store.entries()).toEqual([]);
  store.release();
  await store.settled();
  expect((await store.entries()).map((e) => e.paths)).toEqual([["node_modules"]]);
});

test("a linked entry holds what setup made: a file tool's write before the commit ends does not reach it", async () => {
  const root = tempDir("pg-held-store-");
  cleanups.push(() => rmSync(root, { recursive: true, force: true }));
  const store = new HeldStore(root, 1e9);
  const { ws, ctx } = world(store);
  const setup = await ensureSetup(ctx);
  expect(setup.ran).toBe(true);
  const file = join(ws, "node_modules/dep/index.js");
  // Taken as a link: the workspace's file has a second name, in the staging directory.
  expect(statSync(file).nlink).toBe(2);
  expect(await writeRegularFile(file, "node_modules/dep/index.js", "written by the session\n")).toBeNull();
  expect(readFileSync(file, "utf8")).toBe("written by the session\n");
  store.release();
  await store.settled();
  const [entry] = await store.entries();
  const fresh = tempDir("pg-held-restore-");
  cleanups.push(() => rmSync(fresh, { recursive: true, force: true }));
  await store.restore(entry.key, fresh, undefined);
  expect(readFileSync(join(fresh, "node_modules/dep/index.js"), "utf8")).toBe("as setup made it\n");
  // Once committed, the entry shares no file with the workspace.
  expect(statSync(file).nlink).toBe(1);
});

test("a sandbox that may write in place gets an entry copied at once, never linked", async () => {
  const root = tempDir("pg-held-store-");
  cleanups.push(() => rmSync(root, { recursive: true, force: true }));
  const store = new HeldStore(root, 1e9);
  const { ws, ctx } = world(store);
  const setup = await ensureSetup({ ...ctx, sandbox: { ...ctx.sandbox, writesByReplacing: false } });
  expect(setup.ran).toBe(true);
  expect(statSync(join(ws, "node_modules/dep/index.js")).nlink).toBe(1);
  store.release();
  await store.settled();
});

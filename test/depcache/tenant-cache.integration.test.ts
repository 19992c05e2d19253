import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DependencyStore } from "../../src/depcache/dependency-store.js";
import { withDependencyCache } from "../../src/runs/cached-setup.js";
import type { TaskInput } from "../../src/session/types.js";
import type { RunResult } from "../../src/runs/sandbox-run.js";
import type { ToolContext } from "../../src/tools/tool.js";
import { tempDir } from "../helpers/git-fixture.js";

/**
 * Tenants never share a dependency-cache entry: the same tree installed under one installation is
 * not restored for the same repository id under another installation (a transfer), for a session
 * whose record lacks an id, or for another repository made at the same local path.
 */
const passed: RunResult = { exitCode: 0, signal: null, stdout: "", stderr: "", truncated: false, timedOut: false, durationMs: 1, removedSpecial: [] };
const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, encoding: "utf8" }).trim();

let root: string;
let store: DependencyStore;
let n = 0;
beforeEach(() => {
  root = tempDir("pg-tenant-cache-");
  store = new DependencyStore(join(root, "deps"), 1e9);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A repository at `dir` (made anew when it exists) with the same manifest and lockfile every time. */
function makeRepoAt(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  git(dir, "init", "-q", "-b", "main");
  writeFileSync(join(dir, "package.json"), '{"name":"x"}\n');
  writeFileSync(join(dir, "package-lock.json"), "{}\n");
  git(dir, "add", "-A");
  git(dir, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "init");
}

/** One session's setup of `repo`, recorded as `source`: whether it restored from the cache or ran (and installed). */
async function setup(repo: string, source: TaskInput["source"]): Promise<string> {
  const ws = join(root, `ws${++n}`);
  git(root, "clone", "-q", repo, ws);
  const sessionCache = join(root, `cache${n}`);
  mkdirSync(sessionCache);
  const ctx = {
    workspace: { root: ws, baseCommit: git(ws, "rev-parse", "HEAD") },
    state: { task: { source }, toolchains: null },
    dependencyCache: { store, sessionCache },
  } as unknown as ToolContext;
  const install = async () => (
    mkdirSync(join(ws, "node_modules/private-dep"), { recursive: true }),
    writeFileSync(join(ws, "node_modules/private-dep/index.js"), "secret\n"),
    passed
  );
  const r = await withDependencyCache(ctx, "npm ci", true, install);
  // A stored entry is committed beside the session: the next one, here, starts after it is in place.
  await store.settled();
  return r.dependencyCache?.outcome ?? "no cache";
}

test("an entry stored for installation 1's repository is restored for it alone", async () => {
  const repo = join(root, "widgets");
  makeRepoAt(repo);
  const github = (installationId?: number, repoId?: number): TaskInput["source"] => ({ kind: "github", repo: "acme/widgets", installationId, repoId });
  expect(await setup(repo, github(1, 11))).toBe("stored");
  expect(await setup(repo, github(2, 11))).toBe("stored");
  expect(await setup(repo, github(1, 12))).toBe("stored");
  expect(await setup(repo, github(1, 11))).toBe("restored");
  expect(await setup(repo, github(undefined, 11))).toBe("no cache");
  expect(await setup(repo, github(1, undefined))).toBe("no cache");
});

test("a local repository made again at the same path does not find the entries of the one before", async () => {
  const repo = join(root, "project");
  makeRepoAt(repo);
  expect(await setup(repo, { kind: "cli", repo })).toBe("stored");
  expect(await setup(repo, { kind: "cli", repo })).toBe("restored");
  makeRepoAt(repo);
  expect(await setup(repo, { kind: "cli", repo })).toBe("stored");
});

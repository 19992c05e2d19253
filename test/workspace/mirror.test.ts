import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cloneWorkspace, openWorkspace } from "../../src/workspace/clone.js";
import { evictMirrors, mirrorPath } from "../../src/workspace/mirror.js";
import { bubblewrap } from "../sandbox/sandbox-fixture.js";
import { cleanupTempDirs, filesContaining, makeSource, sh, tempDir, write } from "./git-fixtures.js";
import { startGitHttpServer, type GitHttpServer } from "./http-git-server.js";

/**
 * A mirror per repository (src/workspace/mirror.ts): fetched with the job's token on every session
 * start, never storing it; sessions' clones borrow its objects; concurrent starts do not corrupt it;
 * the sandbox reads its objects and cannot write them; unused mirrors are evicted.
 */
const TOKEN = "ghs_mirrorInstallationToken";
const basic = `Basic ${Buffer.from(`x-access-token:${TOKEN}`).toString("base64")}`;
const auth = { header: `Authorization: ${basic}` };
let server: GitHttpServer;
let repoUrl: string;
let src: { dir: string; head: string };
let bare: string;
let mirrors: { root: string };

beforeEach(async () => {
  src = makeSource();
  const root = tempDir("pg-http-");
  bare = join(root, "acme", "widgets.git");
  sh(root, "clone", "--quiet", "--bare", src.dir, bare);
  server = await startGitHttpServer(root, basic);
  repoUrl = `${server.url}/acme/widgets.git`;
  mirrors = { root: join(tempDir("pg-data-"), "mirrors") };
});
afterEach(async () => {
  await server.close();
  cleanupTempDirs();
});

const clone = (name: string) => cloneWorkspace({ source: repoUrl, dir: join(tempDir(), name), auth, mirror: mirrors });

test("a second session fetches the mirror and borrows its objects; the token is sent on every request and written nowhere", async () => {
  const first = await clone("ws1");
  const mirror = mirrorPath(mirrors.root, repoUrl);
  expect(first.objectDirs).toEqual([join(mirror, "objects")]);
  write(src.dir, "src/parse.txt", "a new line\n");
  sh(src.dir, "commit", "--quiet", "-am", "second");
  sh(src.dir, "push", "--quiet", bare, "main");

  const second = await clone("ws2");
  expect(second.baseCommit).toBe(sh(src.dir, "rev-parse", "HEAD"));
  expect(sh(mirror, "rev-parse", "refs/heads/main")).toBe(second.baseCommit);
  expect(readFileSync(join(second.root, ".git/objects/info/alternates"), "utf8").trim()).toBe(join(mirror, "objects"));
  // Everything came from the mirror: the clone's own object store holds no pack.
  expect(readdirSync(join(second.root, ".git/objects/pack")).filter((f) => f.endsWith(".pack"))).toEqual([]);
  expect(new Set(server.seenAuth)).toEqual(new Set([basic]));
  for (const dir of [mirror, join(first.root, ".git"), join(second.root, ".git")]) expect(filesContaining(dir, [TOKEN, basic])).toEqual([]);
  expect(sh(second.root, "remote", "get-url", "origin")).toBe(repoUrl);
  expect(existsSync(`${mirror}.lock`)).toBe(false);
});

test("sessions starting at once on one repository share one sound mirror", async () => {
  const all = await Promise.all([clone("a"), clone("b"), clone("c")]);
  for (const ws of all) expect(ws.baseCommit).toBe(src.head);
  const mirror = mirrorPath(mirrors.root, repoUrl);
  expect(spawnSync("git", ["fsck", "--no-progress"], { cwd: mirror }).status).toBe(0);
  expect(readdirSync(mirrors.root)).toEqual([`${mirror.split("/").at(-1)}`]);
});

test("a lock left by a process that died mid-fetch is taken over", async () => {
  const dead = spawnSync("true").pid;
  const mirror = mirrorPath(mirrors.root, repoUrl);
  mkdirSync(mirrors.root, { recursive: true });
  writeFileSync(`${mirror}.lock`, String(dead));
  expect((await clone("ws")).baseCommit).toBe(src.head);
  expect(existsSync(`${mirror}.lock`)).toBe(false);
});

test("git in the sandbox reads the mirror's objects, bound read-only, and cannot write them", async () => {
  const ws = await clone("ws");
  const sandbox = await bubblewrap();
  const run = (script: string, binds: readonly string[]) =>
    sandbox.run({ argv: ["/bin/sh", "-c", script], workspace: ws.root, timeoutMs: 20_000, session: { binds: [...binds], pathDirs: [], env: {} } });
  // Without the bind the clone's objects are out of reach: the reason it is there.
  expect((await run("git log -1 --format=%H", [])).exitCode).not.toBe(0);
  const log = await run("git log -1 --format=%H", ws.objectDirs ?? []);
  expect(log.stdout.trim()).toBe(src.head);
  const write = await run(`touch ${ws.objectDirs![0]}/planted`, ws.objectDirs ?? []);
  expect(write.exitCode).not.toBe(0);
  expect(existsSync(join(ws.objectDirs![0], "planted"))).toBe(false);
});

test("mirrors unused for longer than the age, or beyond the size, are evicted; the one in use stays", async () => {
  await clone("ws");
  const kept = mirrorPath(mirrors.root, repoUrl);
  const other = mirrorPath(mirrors.root, `${repoUrl}-other`);
  sh(mirrors.root, "init", "--quiet", "--bare", other);
  writeFileSync(join(other, "patchgate-used"), "");
  const old = new Date(Date.now() - 30 * 24 * 3600 * 1000);
  utimesSync(join(other, "patchgate-used"), old, old);
  expect(await evictMirrors({ ...mirrors, maxAgeMs: 24 * 3600 * 1000 }, kept)).toEqual([other]);
  expect(existsSync(kept)).toBe(true);
  sh(mirrors.root, "init", "--quiet", "--bare", other);
  writeFileSync(join(other, "patchgate-used"), "");
  expect(await evictMirrors({ ...mirrors, maxBytes: 1 }, other)).toEqual([kept]);
  expect(existsSync(other)).toBe(true);
});

test("a clone whose mirror was evicted cannot be reopened (so reopenWorkspace clones again) instead of running on missing objects", async () => {
  const ws = await clone("ws");
  await expect(openWorkspace(ws.root, ws.baseCommit, ws.objectDirs)).resolves.toMatchObject({ baseCommit: src.head });
  rmSync(mirrorPath(mirrors.root, repoUrl), { recursive: true, force: true });
  await expect(openWorkspace(ws.root, ws.baseCommit, ws.objectDirs)).rejects.toThrow(/base commit/);
});

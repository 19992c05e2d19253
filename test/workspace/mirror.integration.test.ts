import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cloneWorkspace, openWorkspace } from "../../src/workspace/clone.js";
import { evictMirrors, mirrorPath } from "../../src/workspace/mirror.js";
import { sessionExtras } from "../../src/agent/session-sandbox.js";
import { bubblewrap } from "../sandbox/sandbox-fixture.js";
import { cleanupTempDirs, filesContaining, makeSource, sh, tempDir, write } from "./git-fixtures.js";
import { startGitHttpServer, type GitHttpServer } from "./http-git-server.js";

/**
 * A mirror per tenant (src/workspace/mirror.ts): fetched with the job's token on every session start,
 * never storing it; sessions' clones copy what they take from it and keep no link to it; concurrent
 * starts do not corrupt it; the sandbox needs no view of it; unused mirrors are evicted.
 */
const TOKEN = "ghs_mirrorInstallationToken";
const basic = `Basic ${Buffer.from(`x-access-token:${TOKEN}`).toString("base64")}`;
const auth = { header: `Authorization: ${basic}` };
let server: GitHttpServer;
let repoUrl: string;
let src: { dir: string; head: string };
let bare: string;
let mirrors: { root: string };
const TENANT = { installationId: 1, repoId: 11 };

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

const clone = (name: string) => cloneWorkspace({ source: repoUrl, dir: join(tempDir(), name), auth, mirror: { settings: mirrors, tenant: TENANT } });

test("a mirror left with git's ref locks by a fetch killed mid-write is fetched again, not locked out for good", async () => {
  await clone("ws1");
  const mirror = mirrorPath(mirrors.root, TENANT);
  // What a `git fetch` killed -9 while moving refs leaves: its lock files, never removed.
  writeFileSync(join(mirror, "refs/heads/main.lock"), "");
  writeFileSync(join(mirror, "packed-refs.lock"), "");
  write(src.dir, "src/parse.txt", "after the cut fetch\n");
  sh(src.dir, "commit", "--quiet", "-am", "second");
  sh(src.dir, "push", "--quiet", bare, "main");

  const second = await clone("ws2");
  expect(second.baseCommit).toBe(sh(src.dir, "rev-parse", "HEAD"));
  expect(sh(mirror, "rev-parse", "refs/heads/main")).toBe(second.baseCommit);
});

test("a second session fetches the mirror and takes its objects as its own; the token is sent on every request and written nowhere", async () => {
  const first = await clone("ws1");
  const mirror = mirrorPath(mirrors.root, TENANT);
  expect(existsSync(join(mirror, "HEAD"))).toBe(true);
  write(src.dir, "src/parse.txt", "a new line\n");
  sh(src.dir, "commit", "--quiet", "-am", "second");
  sh(src.dir, "push", "--quiet", bare, "main");

  const second = await clone("ws2");
  expect(second.baseCommit).toBe(sh(src.dir, "rev-parse", "HEAD"));
  expect(sh(mirror, "rev-parse", "refs/heads/main")).toBe(second.baseCommit);
  // The clone keeps no link to the mirror: it holds every object of its history itself.
  expect(existsSync(join(second.root, ".git/objects/info/alternates"))).toBe(false);
  expect(spawnSync("git", ["fsck", "--no-progress", "--connectivity-only"], { cwd: second.root }).status).toBe(0);
  expect(new Set(server.seenAuth)).toEqual(new Set([basic]));
  for (const dir of [mirror, join(first.root, ".git"), join(second.root, ".git")]) expect(filesContaining(dir, [TOKEN, basic])).toEqual([]);
  expect(sh(second.root, "remote", "get-url", "origin")).toBe(repoUrl);
  expect(existsSync(`${mirror}.lock`)).toBe(false);
});

test("sessions starting at once on one repository share one sound mirror", async () => {
  const all = await Promise.all([clone("a"), clone("b"), clone("c")]);
  for (const ws of all) expect(ws.baseCommit).toBe(src.head);
  const mirror = mirrorPath(mirrors.root, TENANT);
  expect(spawnSync("git", ["fsck", "--no-progress"], { cwd: mirror }).status).toBe(0);
  expect(readdirSync(mirrors.root)).toEqual([`${mirror.split("/").at(-1)}`]);
});

test("a lock left by a process that died mid-fetch is taken over", async () => {
  const dead = spawnSync("true").pid;
  const mirror = mirrorPath(mirrors.root, TENANT);
  mkdirSync(mirrors.root, { recursive: true });
  writeFileSync(`${mirror}.lock`, String(dead));
  expect((await clone("ws")).baseCommit).toBe(src.head);
  expect(existsSync(`${mirror}.lock`)).toBe(false);
});

test("git in the sandbox reads every object of the clone with no bind beyond the workspace, and the mirror is out of its sight", async () => {
  const ws = await clone("ws");
  const sandbox = await bubblewrap();
  const mirror = mirrorPath(mirrors.root, TENANT);
  const run = (script: string) =>
    sandbox.run({ argv: ["/bin/sh", "-c", script], workspace: ws.root, timeoutMs: 20_000, session: sessionExtras(null, undefined) });
  expect((await run("git log -1 --format=%H")).stdout.trim()).toBe(src.head);
  expect((await run(`ls ${mirror}/objects`)).exitCode).not.toBe(0);
});

test("mirrors unused for longer than the age, or beyond the size, are evicted; the one in use stays", async () => {
  await clone("ws");
  const kept = mirrorPath(mirrors.root, TENANT);
  const other = mirrorPath(mirrors.root, { installationId: 1, repoId: 12 });
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

test("a clone outlives its mirror: evicted, the clone still opens at its base", async () => {
  const ws = await clone("ws");
  rmSync(mirrorPath(mirrors.root, TENANT), { recursive: true, force: true });
  await expect(openWorkspace(ws.root, ws.baseCommit)).resolves.toMatchObject({ baseCommit: src.head });
});

test("a mirror of the layout before tenants (named by its URL's hash) is removed at the next eviction, whatever its age", async () => {
  await clone("ws");
  const untenanted = join(mirrors.root, "0123456789abcdef01234567.git");
  sh(mirrors.root, "init", "--quiet", "--bare", untenanted);
  writeFileSync(join(untenanted, "patchgate-used"), "");
  expect(await evictMirrors(mirrors, mirrorPath(mirrors.root, TENANT))).toEqual([untenanted]);
});

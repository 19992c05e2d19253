import { join } from "node:path";
import { cloneWorkspace } from "../../src/workspace/clone.js";
import { WorkspaceError } from "../../src/workspace/workspace-error.js";
import { cleanupTempDirs, filesContaining, makeSource, sh, tempDir, write } from "./git-fixtures.js";
import { startGitHttpServer, type GitHttpServer } from "./http-git-server.js";

const TOKEN = "ghs_s3cretInstallationToken";
const basic = `Basic ${Buffer.from(`x-access-token:${TOKEN}`).toString("base64")}`;
const auth = { header: `Authorization: ${basic}` };
let server: GitHttpServer;
let repoUrl: string;
let bare: string;

beforeEach(async () => {
  const src = makeSource();
  const root = tempDir("pg-http-");
  bare = join(root, "acme", "widgets.git");
  sh(root, "clone", "--quiet", "--bare", src.dir, bare);
  server = await startGitHttpServer(root, basic);
  repoUrl = `${server.url}/acme/widgets.git`;
});
afterEach(async () => {
  await server.close();
  cleanupTempDirs();
});

test("clone sends the auth header on every request and writes it nowhere in .git", async () => {
  const ws = await cloneWorkspace({ source: repoUrl, dir: join(tempDir(), "ws"), auth });
  expect(ws.baseCommit).toBe(sh(bare, "rev-parse", "HEAD"));
  expect(server.seenAuth.length).toBeGreaterThan(0);
  expect(new Set(server.seenAuth)).toEqual(new Set([basic]));
  expect(filesContaining(join(ws.root, ".git"), [TOKEN, basic])).toEqual([]);
  expect(sh(ws.root, "remote", "get-url", "origin")).toBe(repoUrl);
});

test("a token in the URL is used as a header, and the stored remote URL has none", async () => {
  const withToken = repoUrl.replace("http://", `http://x-access-token:${TOKEN}@`);
  const ws = await cloneWorkspace({ source: withToken, dir: join(tempDir(), "ws") });
  expect(new Set(server.seenAuth)).toEqual(new Set([basic]));
  expect(sh(ws.root, "remote", "get-url", "origin")).toBe(repoUrl);
  expect(filesContaining(join(ws.root, ".git"), [TOKEN, basic])).toEqual([]);
});

test("without auth the clone fails at once instead of prompting", async () => {
  const err = await cloneWorkspace({ source: repoUrl, dir: join(tempDir(), "ws") }).catch((e: unknown) => e);
  expect(WorkspaceError.isInstance(err) && err.code).toBe("git_failed");
  expect(server.seenAuth).toEqual([undefined]);
});

test("push over HTTP with auth lands the branch and leaves no token behind", async () => {
  const ws = await cloneWorkspace({ source: repoUrl, dir: join(tempDir(), "ws"), auth });
  write(ws.root, "fix.txt", "fixed\n");
  const sha = await ws.commit({ branch: "patchgate/issue-3", message: "Fix", author: { name: "P", email: "p@x" }, paths: ["fix.txt"] });
  expect(await ws.push({ remote: repoUrl, branch: "patchgate/issue-3", auth })).toEqual({ ok: true, commit: sha });
  expect(sh(bare, "rev-parse", "refs/heads/patchgate/issue-3")).toBe(sha);
  expect(filesContaining(join(ws.root, ".git"), [TOKEN, basic])).toEqual([]);
});

test("push without auth fails as a result without prompting for a password", async () => {
  const ws = await cloneWorkspace({ source: repoUrl, dir: join(tempDir(), "ws"), auth });
  write(ws.root, "fix.txt", "fixed\n");
  await ws.commit({ branch: "b", message: "Fix", author: { name: "P", email: "p@x" }, paths: ["fix.txt"] });
  const r = await ws.push({ remote: repoUrl, branch: "b" });
  expect(r.ok).toBe(false);
  expect(r.ok === false && r.stderr).toContain("terminal prompts disabled");
});

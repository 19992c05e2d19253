import { chmodSync, existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { cloneWorkspace } from "../../src/workspace/clone.js";
import { git } from "../../src/workspace/git.js";
import { WorkspaceError } from "../../src/workspace/workspace-error.js";
import { type GitWorkspace } from "../../src/workspace/git-workspace.js";
import { cleanupTempDirs, makeBare, makeSource, markerScript, sh, tempDir, write } from "./git-fixtures.js";

/**
 * The sandboxed test command can write into the clone. These pin that nothing it leaves in .git
 * runs on the host when Patchgate itself calls git. Each case first shows, with plain git, that the
 * trap is real, then that Patchgate's call does not spring it.
 */
let ws: GitWorkspace;
let marker: string;

beforeEach(async () => {
  ws = await cloneWorkspace({ source: makeSource().dir, dir: join(tempDir(), "ws") });
  marker = join(tempDir("pg-marker-"), "ran");
});
afterEach(cleanupTempDirs);

async function codeOf(p: Promise<unknown>): Promise<string> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  if (!WorkspaceError.isInstance(e)) throw new Error(`expected a WorkspaceError, got ${String(e)}`);
  return e.code;
}

const rm = (file: string) => rmSync(file, { force: true });

test("hooks in .git/hooks do not run on checkout, commit or push", async () => {
  for (const hook of ["post-checkout", "pre-commit", "post-commit", "reference-transaction", "pre-push"]) {
    markerScript(join(ws.root, ".git/hooks", hook), marker);
  }
  sh(ws.root, "checkout", "--quiet", "--detach", "HEAD");
  expect(existsSync(marker)).toBe(true); // plain git runs them
  rm(marker);

  expect((await git(["checkout", "--quiet", "--detach", "HEAD"], { cwd: ws.root })).exitCode).toBe(0);
  write(ws.root, "a.txt", "1\n");
  await ws.commit({ branch: "b", message: "m", author: { name: "P", email: "p@x" }, paths: ["a.txt", "x.txt"] });
  expect(await ws.push({ remote: makeBare(), branch: "b" })).toMatchObject({ ok: true });
  expect(existsSync(marker)).toBe(false);
});

test("core.hooksPath set in the clone's config does not run, and the workspace refuses that config", async () => {
  markerScript(join(ws.root, "evil-hooks", "post-checkout"), marker);
  sh(ws.root, "config", "core.hooksPath", join(ws.root, "evil-hooks"));
  sh(ws.root, "checkout", "--quiet", "--detach", "HEAD");
  expect(existsSync(marker)).toBe(true);
  rm(marker);

  expect((await git(["checkout", "--quiet", "--detach", "HEAD"], { cwd: ws.root })).exitCode).toBe(0);
  expect(existsSync(marker)).toBe(false);
  expect(await codeOf(ws.treeHash())).toBe("unsafe_config");
});

test("core.fsmonitor set in the clone's config does not run", async () => {
  const script = join(tempDir(), "fsmon");
  markerScript(script, marker);
  sh(ws.root, "config", "core.fsmonitor", script);
  sh(ws.root, "status", "--porcelain");
  expect(existsSync(marker)).toBe(true);
  rm(marker);

  expect((await git(["status", "--porcelain"], { cwd: ws.root })).exitCode).toBe(0);
  expect(existsSync(marker)).toBe(false);
  expect(await codeOf(ws.diff([]))).toBe("unsafe_config");
});

test("a clean filter wired through .gitattributes is refused before git could run it", async () => {
  const filter = join(tempDir(), "clean.sh");
  markerScript(filter, marker);
  sh(ws.root, "config", "filter.evil.clean", filter);
  write(ws.root, ".gitattributes", "*.txt filter=evil\n");
  write(ws.root, "x.txt", "x\n");
  sh(ws.root, "add", "x.txt");
  expect(existsSync(marker)).toBe(true);
  sh(ws.root, "reset", "--quiet");
  rm(marker);

  const ops = [
    () => ws.treeHash(),
    () => ws.diff(["x.txt"]),
    () => ws.commit({ branch: "b", message: "m", author: { name: "P", email: "p@x" }, paths: ["a.txt", "x.txt"] }),
  ];
  for (const op of ops) expect(await codeOf(op())).toBe("unsafe_config");
  expect(existsSync(marker)).toBe(false);
});

test("a .git file pointing elsewhere is refused", async () => {
  const other = makeSource().dir;
  rmSync(join(ws.root, ".git"), { recursive: true });
  write(ws.root, ".git", `gitdir: ${join(other, ".git")}\n`);
  expect(await codeOf(ws.treeHash())).toBe("unsafe_config");
});

test("git gets no secrets from the server's environment, and never prompts", async () => {
  // The probe is a hook: a program git starts sees git's environment. This test's own -c comes after
  // the hardening one on argv, so it wins (an alias, the old probe, is now refused; see below).
  const dump = join(tempDir(), "env.txt");
  const hooks = join(tempDir(), "hooks");
  write(hooks, "post-checkout", `#!/bin/sh\nenv > '${dump}'\n`);
  chmodSync(join(hooks, "post-checkout"), 0o755);
  process.env.PATCHGATE_TEST_SECRET = "sk-do-not-leak";
  try {
    const r = await git(["-c", `core.hooksPath=${hooks}`, "checkout", "--quiet", "--detach", "HEAD"], { cwd: ws.root });
    expect(r.exitCode).toBe(0);
    const env = readFileSync(dump, "utf8");
    expect(env).not.toContain("sk-do-not-leak");
    expect(env).toMatch(/^GIT_TERMINAL_PROMPT=0$/m);
    expect(env).not.toMatch(/^GIT_ASKPASS=/m);
  } finally {
    delete process.env.PATCHGATE_TEST_SECRET;
  }
});

test("config or environment that would run a program is refused before git starts", async () => {
  const alias = `alias.x=!touch '${marker}'`;
  sh(ws.root, "-c", alias, "x");
  expect(existsSync(marker)).toBe(true); // plain git runs it
  rm(marker);

  // The guard (simple-git's argv parser): only the categories git-hardening.ts opts into may be set on argv or in env.
  await expect(git(["-c", alias, "x"], { cwd: ws.root })).rejects.toMatchObject({
    name: "GitRefusedError",
    message: expect.stringMatching(/allowUnsafeAlias/),
  });
  const env = { GIT_EXTERNAL_DIFF: join(tempDir(), "x.sh") };
  await expect(git(["diff", "--ext-diff", "HEAD"], { cwd: ws.root, env })).rejects.toThrow(/allowUnsafeDiffExternal/);
  expect(existsSync(marker)).toBe(false);
});

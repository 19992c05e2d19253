import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { realpathSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { isProtectedPath, resolveInWorkspace } from "../../src/policy/path-confinement.js";

let root: string;
let outside: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "pg-confine-"));
  outside = await mkdtemp(path.join(os.tmpdir(), "pg-outside-"));
  await mkdir(path.join(root, "src"));
  await writeFile(path.join(root, "src", "a.ts"), "export {};\n");
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

async function refusal(rel: string): Promise<string> {
  const r = await resolveInWorkspace(root, rel);
  if (r.ok) throw new Error(`expected ${rel} to be refused, got ${r.abs}`);
  expect(r.error.code).toBe("path_denied");
  return r.error.message;
}

describe("resolveInWorkspace", () => {
  test("an existing file inside resolves to its normalised relative path", async () => {
    expect(await resolveInWorkspace(root, "./src//a.ts")).toEqual({ ok: true, abs: path.join(realpathSync(root), "src/a.ts"), rel: "src/a.ts" });
  });

  test("a new file in a new directory is allowed", async () => {
    expect(await resolveInWorkspace(root, "lib/new/deep/file.ts")).toEqual({
      ok: true,
      abs: path.join(realpathSync(root), "lib/new/deep/file.ts"),
      rel: "lib/new/deep/file.ts",
    });
  });

  test("`.` is the workspace root itself", async () => {
    expect(await resolveInWorkspace(root, ".")).toEqual({ ok: true, abs: realpathSync(root), rel: "." });
  });

  test("a name starting with `..` is an ordinary name", async () => {
    await writeFile(path.join(root, "..notes"), "x");
    expect(await resolveInWorkspace(root, "..notes")).toEqual({ ok: true, abs: path.join(realpathSync(root), "..notes"), rel: "..notes" });
  });

  test("absolute path is refused", async () => {
    expect(await refusal("/etc/passwd")).toMatch(/absolute/);
  });

  test("absolute path pointing inside the workspace is still refused", async () => {
    expect(await refusal(path.join(root, "src/a.ts"))).toMatch(/absolute/);
  });

  test("`..` segment is refused even when it would land inside", async () => {
    expect(await refusal("src/../src/a.ts")).toMatch(/\.\./);
  });

  test("`..` escaping the workspace is refused", async () => {
    expect(await refusal("../outside.txt")).toMatch(/\.\./);
  });

  test("backslash `..` is refused", async () => {
    expect(await refusal("src\\..\\..\\x")).toMatch(/\.\./);
  });

  test("NUL byte is refused", async () => {
    expect(await refusal("src/a.ts\0.png")).toMatch(/NUL/);
  });

  test("empty path is refused", async () => {
    expect(await refusal("")).toMatch(/empty/);
  });

  test("symlink to /etc is refused", async () => {
    await symlink("/etc", path.join(root, "etc-link"));
    expect(await refusal("etc-link/passwd")).toMatch(/outside the workspace/);
  });

  test("symlinked directory leading out is refused for a new file below it", async () => {
    await symlink(outside, path.join(root, "out"));
    expect(await refusal("out/new/file.txt")).toMatch(/outside the workspace/);
  });

  test("dangling symlink pointing outside is refused", async () => {
    await symlink(path.join(outside, "not-yet"), path.join(root, "dangling"));
    expect(await refusal("dangling")).toMatch(/outside the workspace/);
  });

  test("symlink that stays inside the workspace is allowed", async () => {
    await symlink("src", path.join(root, "alias"));
    expect(await resolveInWorkspace(root, "alias/a.ts")).toEqual({ ok: true, abs: path.join(realpathSync(root), "alias/a.ts"), rel: "alias/a.ts" });
  });

  test("root reached through a symlink still works (realpath of both sides)", async () => {
    const linkedRoot = path.join(outside, "ws");
    await symlink(root, linkedRoot);
    expect(await resolveInWorkspace(linkedRoot, "src/a.ts")).toEqual({ ok: true, abs: path.join(realpathSync(root), "src/a.ts"), rel: "src/a.ts" });
  });
});

describe("isProtectedPath", () => {
  test.each([
    [".git", ".git"],
    [".git/config", ".git/**"],
    [".git/hooks/pre-commit", ".git/**"],
    [".github/workflows/ci.yml", ".github/workflows/**"],
    [".gitmodules", ".gitmodules"],
    [".github/patchgate.yml", ".github/patchgate.yml"],
    ["./.git/HEAD", ".git/**"],
    [".mcp.json", "**/.mcp.json"],
    ["packages/app/.MCP.json", "**/.mcp.json"],
    [".vscode/mcp.json", ".vscode/**"],
    [".vscode/tasks.json", ".vscode/**"],
    [".cursor/mcp.json", ".cursor/mcp.json"],
    [".claude/settings.json", ".claude/**"],
    [".claude/commands/deploy.md", ".claude/**"],
    [".github/actions/setup/action.yml", ".github/actions/**"],
    [".husky/pre-commit", ".husky/**"],
  ])("%s is protected by %s", (rel, glob) => {
    expect(isProtectedPath(rel)).toBe(glob);
  });

  test.each([
    ".github/CODEOWNERS",
    ".gitignore",
    "src/.git-helpers.ts",
    "docs/workflows/ci.md",
    ".github/patchgate.yml.bak",
    "docs/mcp.json",
    ".mcp.json.example",
    "src/.husky.ts",
    "docs/.vscode-tips.md",
    ".github/actions.md",
  ])("near miss %s is not protected", (rel) => {
    expect(isProtectedPath(rel)).toBeNull();
  });

  test("extra globs from the repo config are honoured", () => {
    expect(isProtectedPath("secrets/prod.env", ["secrets/**"])).toBe("secrets/**");
    expect(isProtectedPath("src/prod.env", ["secrets/**"])).toBeNull();
  });
});

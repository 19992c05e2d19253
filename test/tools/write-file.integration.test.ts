import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_REPO_CONFIG } from "../../src/config/repo-config.js";
import { contentHash } from "../../src/policy/edit-context.js";
import { readFileTool } from "../../src/tools/read-file.js";
import { writeFileTool } from "../../src/tools/write-file.js";
import { harnessFactory } from "./helpers/harness-factory.js";
import { codeOf, dataOf } from "./helpers/tool-harness.js";

describe("write_file", () => {
  const setup = harnessFactory();

  test("a new file may be written without a read; parents are created", async () => {
    const h = await setup({ "a.ts": "a\n" });
    const { result, events } = await h.call(writeFileTool, { path: "src/new/b.ts", content: "export const b = 1;\n" });
    expect(result).toEqual({ ok: true, data: { path: "src/new/b.ts", bytes: 20, created: true } });
    expect(events).toEqual([{ type: "file_written", path: "src/new/b.ts", hash: contentHash("export const b = 1;\n") }]);
    expect(readFileSync(join(h.workspace.root, "src/new/b.ts"), "utf8")).toBe("export const b = 1;\n");
  });

  test("an existing file never read is edit_without_read, and left untouched", async () => {
    const h = await setup({ "a.ts": "a\n" });
    const { result } = await h.call(writeFileTool, { path: "a.ts", content: "b\n" });
    expect(codeOf(result)).toBe("edit_without_read");
    expect(readFileSync(join(h.workspace.root, "a.ts"), "utf8")).toBe("a\n");
  });

  test("read, then write, is allowed and reports created=false", async () => {
    const h = await setup({ "a.ts": "a\n" });
    await h.call(readFileTool, { path: "a.ts" });
    expect(dataOf((await h.call(writeFileTool, { path: "a.ts", content: "bb\n" })).result)).toEqual({ path: "a.ts", bytes: 3, created: false });
  });

  test("a file changed since it was read is edit_without_read (changed_since_read)", async () => {
    const h = await setup({ "a.ts": "a\n" });
    await h.call(readFileTool, { path: "a.ts" });
    writeFileSync(join(h.workspace.root, "a.ts"), "changed by a command\n");
    const { result } = await h.call(writeFileTool, { path: "a.ts", content: "b\n" });
    expect(result.ok ? null : result.error.details).toEqual({ path: "a.ts", reason: "changed_since_read", readAtStep: 0 });
  });

  test("its own write counts as the latest content: write twice in a row is allowed", async () => {
    const h = await setup({ "a.ts": "a\n" });
    await h.call(readFileTool, { path: "a.ts" });
    await h.call(writeFileTool, { path: "a.ts", content: "b\n" });
    expect(codeOf((await h.call(writeFileTool, { path: "a.ts", content: "c\n" })).result)).toBe("ok");
  });

  test("execute judges the edit context again (e.g. after an approval wait)", async () => {
    const h = await setup({ "a.ts": "a\n" });
    const outcome = await writeFileTool.execute({ path: "a.ts", content: "b\n" }, h.ctx());
    expect([codeOf(outcome.result), outcome.events]).toEqual(["edit_without_read", undefined]);
  });

  test.each([".git/hooks/pre-commit", ".github/workflows/ci.yml", ".gitmodules", ".github/patchgate.yml"])("protected path %s is path_denied", async (p) => {
    const h = await setup({ "a.ts": "a\n" });
    expect(codeOf((await h.call(writeFileTool, { path: p, content: "x" })).result)).toBe("path_denied");
  });

  // A `.git` below the root makes its directory a nested repository: git commits it as a gitlink, not
  // as the files the tests ran on, and `git status` run inside it obeys its config.
  test.each(["vendor/lib/.git/config", "vendor/lib/.git/HEAD", "vendor/lib/.git", "src/.GIT/config"])("a nested git directory %s is path_denied", async (p) => {
    const h = await setup({ "a.ts": "a\n" });
    expect(codeOf((await h.call(writeFileTool, { path: p, content: "ref: refs/heads/main\n" })).result)).toBe("path_denied");
  });
  test("the repository's extra protected paths are path_denied too", async () => {
    const h = await setup(
      { "a.ts": "a\n" },
      { repoConfig: { ...DEFAULT_REPO_CONFIG, policy: { ...DEFAULT_REPO_CONFIG.policy, protected_paths: ["secrets/**"] } } },
    );
    const { result } = await h.call(writeFileTool, { path: "secrets/key.txt", content: "x" });
    expect(result).toEqual({
      ok: false,
      error: {
        code: "path_denied",
        message: "secrets/key.txt is a protected path (matches `secrets/**`); the agent may never write it.",
        details: { path: "secrets/key.txt" },
      },
    });
  });

  test("a symlink inside the repo cannot smuggle a write into a protected directory", async () => {
    const h = await setup({ ".github/workflows/ci.yml": "on: push\n", wf: { symlink: ".github/workflows" } });
    const { result } = await h.call(writeFileTool, { path: "wf/evil.yml", content: "x" });
    expect(result.ok ? null : [result.error.code, result.error.details]).toEqual(["path_denied", { path: ".github/workflows/evil.yml" }]);
  });

  test("a symlink leading out of the workspace is path_denied", async () => {
    const h = await setup({ "a.ts": "a\n", tmp: { symlink: "/tmp" } });
    expect(codeOf((await h.call(writeFileTool, { path: "tmp/pwned.txt", content: "x" })).result)).toBe("path_denied");
  });

  test("a dangling symlink is path_denied", async () => {
    const h = await setup({ "a.ts": "a\n", ghost: { symlink: "missing-target.txt" } });
    expect(codeOf((await h.call(writeFileTool, { path: "ghost", content: "x" })).result)).toBe("path_denied");
  });

  test("writing onto a directory is not_a_file", async () => {
    const h = await setup({ "src/a.ts": "a\n" });
    expect(codeOf((await h.call(writeFileTool, { path: "src", content: "x" })).result)).toBe("not_a_file");
  });

  test("a path through a file (a.ts/b.ts) is refused, not thrown", async () => {
    const h = await setup({ "a.ts": "a\n" });
    expect(codeOf((await h.call(writeFileTool, { path: "a.ts/b.ts", content: "x" })).result)).toBe("path_denied");
  });

  test("preview is a unified diff from /dev/null for a new file", async () => {
    const h = await setup({ "a.ts": "a\n" });
    const preview = await writeFileTool.preview!({ path: "n.ts", content: "one\n" }, h.ctx());
    expect(preview).toBe("===================================================================\n--- /dev/null\n+++ b/n.ts\n@@ -0,0 +1,1 @@\n+one\n");
  });

  test("preview of an overwrite shows the change", async () => {
    const h = await setup({ "a.ts": "a\n" });
    await h.call(readFileTool, { path: "a.ts" });
    const preview = await writeFileTool.preview!({ path: "a.ts", content: "b\n" }, h.ctx());
    expect(preview).toBe("===================================================================\n--- a/a.ts\n+++ b/a.ts\n@@ -1,1 +1,1 @@\n-a\n+b\n");
  });

  test("request is a write of the normalised path", () => {
    expect(writeFileTool.request({ path: "./src/x.ts", content: "" }, undefined as never)).toEqual({ kind: "write", tool: "write_file", path: "src/x.ts" });
  });
});

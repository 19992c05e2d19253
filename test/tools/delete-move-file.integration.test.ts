import { existsSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { contentHash } from "../../src/policy/edit-context.js";
import { publicationRefusal } from "../../src/publish/publication-check.js";
import { guardedRun } from "../../src/runs/guarded-run.js";
import type { SandboxResult } from "../../src/sandbox/types.js";
import { deleteFileTool } from "../../src/tools/delete-file.js";
import { editFileTool } from "../../src/tools/edit-file.js";
import { moveFileTool } from "../../src/tools/move-file.js";
import { readFileTool } from "../../src/tools/read-file.js";
import { writeFileTool } from "../../src/tools/write-file.js";
import { harnessFactory } from "./helpers/harness-factory.js";
import { codeOf, dataOf } from "./helpers/tool-harness.js";

const LONG = Array.from({ length: 40 }, (_, i) => `export const v${i} = ${i};`).join("\n") + "\n";
// Bytes no text tool would read: a NUL early and invalid UTF-8.
const BINARY = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0xff, 0xfe]), Buffer.alloc(4096, 7)]);

describe("delete_file", () => {
  const setup = harnessFactory();

  test("deletes a file without a read; the event names the content's hash, never the content", async () => {
    const h = await setup({ "src/a.ts": LONG });
    const { result, events } = await h.call(deleteFileTool, { path: "src/a.ts" });
    expect(dataOf(result)).toEqual({ path: "src/a.ts", deleted: true, bytes: Buffer.byteLength(LONG) });
    expect(events).toEqual([{ type: "file_deleted", path: "src/a.ts", hash: contentHash(LONG) }]);
    expect(existsSync(join(h.workspace.root, "src/a.ts"))).toBe(false);
  });

  test("the published diff deletes the file; the workspace's other files are untouched", async () => {
    const h = await setup({ "src/a.ts": LONG, "b.ts": "b\n" });
    await h.call(deleteFileTool, { path: "src/a.ts" });
    const changes = await h.workspace.changedPaths(h.state.publishablePaths);
    expect(changes.map((c) => [c.path, c.mode])).toEqual([["src/a.ts", "000000"]]);
    expect(await publicationRefusal(h.workspace, h.state, [])).toBeNull();
  });

  test("a deleted file that reappears (a command wrote it) is not what was recorded: publication refuses it", async () => {
    const h = await setup({ "a.ts": "a\n" });
    await h.call(deleteFileTool, { path: "a.ts" });
    writeFileSync(join(h.workspace.root, "a.ts"), "back\n");
    expect((await publicationRefusal(h.workspace, h.state, []))?.code).toBe("written_file_changed");
  });

  test.each([".github/workflows/ci.yml", ".github/patchgate.yml", ".gitmodules"])("protected path %s is path_denied and stays", async (p) => {
    const h = await setup({ [p]: "x: 1\n" });
    expect(codeOf((await h.call(deleteFileTool, { path: p })).result)).toBe("path_denied");
    expect(existsSync(join(h.workspace.root, p))).toBe(true);
  });

  test("a missing file, a directory and a symlink are refused", async () => {
    const h = await setup({ "dir/a.ts": "a\n", "real.ts": "r\n" });
    symlinkSync("real.ts", join(h.workspace.root, "link.ts"));
    const codes = [];
    for (const path of ["nope.ts", "dir", "link.ts"]) codes.push(codeOf((await h.call(deleteFileTool, { path })).result));
    expect(codes).toEqual(["file_not_found", "not_a_file", "path_denied"]);
    expect(readFileSync(join(h.workspace.root, "real.ts"), "utf8")).toBe("r\n");
  });

  test("executable configuration is deleted only under its own approval", async () => {
    const h = await setup({ ".gitlab-ci.yml": "job:\n  script: make\n" });
    const refused = await h.call(deleteFileTool, { path: ".gitlab-ci.yml" }, { by: "human" });
    expect(codeOf(refused.result)).toBe("executable_config_not_approved");
    expect(existsSync(join(h.workspace.root, ".gitlab-ci.yml"))).toBe(true);
  });

  test("the preview shows the lines that go; a binary file is named by its size only", async () => {
    const h = await setup({ "a.ts": "gone\n", "img.png": BINARY });
    expect(await deleteFileTool.preview!({ path: "a.ts" }, h.ctx())).toContain("-gone");
    expect(await deleteFileTool.preview!({ path: "img.png" }, h.ctx())).toBe(`delete img.png (${BINARY.length} bytes, binary or large: not shown)`);
  });
});

describe("move_file", () => {
  const setup = harnessFactory();

  test("moves the file whole; what was read of it counts at the new path, so an edit there needs no re-read", async () => {
    const h = await setup({ "src/old.ts": LONG });
    await h.call(readFileTool, { path: "src/old.ts" });
    const moved = await h.call(moveFileTool, { from: "src/old.ts", to: "lib/new.ts" });
    expect(moved.events).toEqual([{ type: "file_moved", from: "src/old.ts", to: "lib/new.ts", hash: contentHash(LONG) }]);
    const edited = await h.call(editFileTool, { path: "lib/new.ts", edits: [{ search: "export const v3 = 3;", replace: "export const v3 = 33;" }] });
    expect(codeOf(edited.result)).toBe("ok");
    expect(readFileSync(join(h.workspace.root, "lib/new.ts"), "utf8")).toBe(LONG.replace("v3 = 3;", "v3 = 33;"));
    expect(h.state.publishablePaths).toEqual(["lib/new.ts", "src/old.ts"]);
  });

  test("the published diff is a rename with the change: git finds the similarity", async () => {
    const h = await setup({ "src/old.ts": LONG });
    await h.call(readFileTool, { path: "src/old.ts" });
    await h.call(moveFileTool, { from: "src/old.ts", to: "lib/new.ts" });
    await h.call(editFileTool, { path: "lib/new.ts", edits: [{ search: "export const v3 = 3;", replace: "export const v3 = 33;" }] });
    const diff = await h.workspace.diff(h.state.publishablePaths);
    expect(diff.patch).toMatch(/similarity index 9\d%\nrename from src\/old.ts\nrename to lib\/new.ts\n/);
    expect(await publicationRefusal(h.workspace, h.state, [])).toBeNull();
  });

  test("a stale read does not travel: the file changed since it was read must be read again at its new path", async () => {
    const h = await setup({ "a.ts": "one\n" });
    await h.call(readFileTool, { path: "a.ts" });
    writeFileSync(join(h.workspace.root, "a.ts"), "two\n");
    await h.call(moveFileTool, { from: "a.ts", to: "b.ts" });
    const edited = await h.call(editFileTool, { path: "b.ts", edits: [{ search: "two", replace: "three" }] });
    expect(edited.result.ok ? null : edited.result.error.details).toEqual({ path: "b.ts", reason: "never_read" });
  });

  test("the old path keeps no context: a file that appears there later must be read before it is overwritten", async () => {
    const h = await setup({ "a.ts": "a\n" });
    await h.call(readFileTool, { path: "a.ts" });
    await h.call(moveFileTool, { from: "a.ts", to: "b.ts" });
    writeFileSync(join(h.workspace.root, "a.ts"), "a\n");
    const { result } = await h.call(writeFileTool, { path: "a.ts", content: "over\n" });
    expect(result.ok ? null : result.error.details).toEqual({ path: "a.ts", reason: "never_read" });
  });

  test("a binary file moves without being read; the event carries its hash only", async () => {
    const h = await setup({ "assets/logo.png": BINARY });
    const { result, events } = await h.call(moveFileTool, { from: "assets/logo.png", to: "img/logo.png" });
    expect(dataOf(result)).toEqual({ from: "assets/logo.png", to: "img/logo.png", bytes: BINARY.length });
    expect(JSON.stringify(events).length).toBeLessThan(300);
    expect(readFileSync(join(h.workspace.root, "img/logo.png")).equals(BINARY)).toBe(true);
    const diff = await h.workspace.diff(h.state.publishablePaths);
    expect(diff.patch).toMatch(/similarity index 100%\nrename from assets\/logo.png\nrename to img\/logo.png\n/);
  });

  test.each([
    ["a.ts", ".github/workflows/ci.yml"],
    ["a.ts", ".github/patchgate.yml"],
    [".github/workflows/ci.yml", "ci.yml"],
    [".github/patchgate.yml", "patchgate.yml"],
  ])("%s → %s: a protected path at either end is path_denied, nothing moves", async (from, to) => {
    const h = await setup({ "a.ts": "a\n", ".github/workflows/ci.yml": "on: push\n", ".github/patchgate.yml": "test: x\n" });
    expect(codeOf((await h.call(moveFileTool, { from, to })).result)).toBe("path_denied");
    expect(existsSync(join(h.workspace.root, from))).toBe(true);
  });

  test("an existing destination, the same path and a symlink source are refused", async () => {
    const h = await setup({ "a.ts": "a\n", "b.ts": "b\n" });
    symlinkSync("a.ts", join(h.workspace.root, "link.ts"));
    const codes = [];
    for (const [from, to] of [
      ["a.ts", "b.ts"],
      ["a.ts", "./a.ts"],
      ["link.ts", "c.ts"],
    ])
      codes.push(codeOf((await h.call(moveFileTool, { from, to })).result));
    expect(codes).toEqual(["destination_exists", "same_path", "path_denied"]);
    expect(readFileSync(join(h.workspace.root, "b.ts"), "utf8")).toBe("b\n");
  });

  test("moving into executable configuration needs its own approval", async () => {
    const h = await setup({ "ci.yml": "job:\n  script: make\n" });
    expect(await moveFileTool.executableConfig!({ from: "ci.yml", to: ".gitlab-ci.yml" }, h.ctx())).toMatchObject({ path: ".gitlab-ci.yml" });
    const refused = await h.call(moveFileTool, { from: "ci.yml", to: ".gitlab-ci.yml" }, { by: "human" });
    expect(codeOf(refused.result)).toBe("executable_config_not_approved");
    expect(existsSync(join(h.workspace.root, "ci.yml"))).toBe(true);
  });
});

describe("a command after a delete or a move is rolled back to them", () => {
  const setup = harnessFactory();
  const done: SandboxResult = { exitCode: 0, signal: null, stdout: "", stderr: "", truncated: false, timedOut: false, durationMs: 1 };

  test("a file a command puts back where one was deleted, or takes from where one was moved to, is undone", async () => {
    const h = await setup({ "gone.ts": "g\n", "a.ts": "a\n" });
    await h.call(deleteFileTool, { path: "gone.ts" });
    await h.call(moveFileTool, { from: "a.ts", to: "lib/a.ts" });
    const ws = h.workspace;
    const run = await guardedRun({ workspace: ws, publishable: h.state.publishablePaths }, false, async () => {
      writeFileSync(join(ws.root, "gone.ts"), "back\n");
      rmSync(join(ws.root, "lib/a.ts"));
      return done;
    });
    expect([...run.discarded].sort()).toEqual(["gone.ts", "lib/a.ts"]);
    expect([existsSync(join(ws.root, "gone.ts")), existsSync(join(ws.root, "a.ts")), readFileSync(join(ws.root, "lib/a.ts"), "utf8")]).toEqual([
      false,
      false,
      "a\n",
    ]);
    expect(await publicationRefusal(ws, h.state, [])).toBeNull();
  });
});

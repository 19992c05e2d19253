import { listFilesTool } from "../../src/tools/list-files.js";
import { harnessFactory } from "./helpers/harness-factory.js";
import { writeEntries } from "../helpers/git-fixture.js";
import { codeOf, dataOf } from "./helpers/tool-harness.js";

describe("list_files", () => {
  const make = harnessFactory();
  const setup = (files: Parameters<typeof make>[0]) => make(files, { mode: "plan" });

  test("lists every file recursively in byte order, without .git", async () => {
    const h = await setup({ "b.txt": "b", "a/z.ts": "z", "a/b/c.ts": "c", "A.md": "A" });
    expect((await h.call(listFilesTool, {})).result).toEqual({
      ok: true,
      data: { path: ".", files: ["A.md", "a/b/c.ts", "a/z.ts", "b.txt"], truncated: false },
    });
  });

  test("hides what the root .gitignore ignores, directories included", async () => {
    const h = await setup({ ".gitignore": "node_modules/\n*.log\n", "src/a.ts": "a", "debug.log": "x", "src/deep.log": "x" });
    writeEntries(h.workspace.root, { "node_modules/pkg/index.js": "x" });
    expect(dataOf((await h.call(listFilesTool, {})).result).files).toEqual([".gitignore", "src/a.ts"]);
  });

  test("honours nested .gitignore files, scoped to their directory", async () => {
    const h = await setup({ "pkg/.gitignore": "out\n", "pkg/src/a.ts": "a", "top.ts": "t" });
    writeEntries(h.workspace.root, { "pkg/out/gen.js": "x", "out/keep.js": "k" });
    expect(dataOf((await h.call(listFilesTool, {})).result).files).toEqual(["out/keep.js", "pkg/.gitignore", "pkg/src/a.ts", "top.ts"]);
  });

  test("a nested `!pattern` re-includes what a parent ignored", async () => {
    const h = await setup({ ".gitignore": "*.gen.ts\n", "lib/.gitignore": "!keep.gen.ts\n", "lib/a.ts": "a" });
    writeEntries(h.workspace.root, { "lib/keep.gen.ts": "k", "lib/drop.gen.ts": "d" });
    expect(dataOf((await h.call(listFilesTool, {})).result).files).toEqual([".gitignore", "lib/.gitignore", "lib/a.ts", "lib/keep.gen.ts"]);
  });

  test("ancestors' ignore rules apply when listing a subdirectory", async () => {
    const h = await setup({ ".gitignore": "*.tmp\n", "src/a.ts": "a" });
    writeEntries(h.workspace.root, { "src/b.tmp": "x" });
    expect(dataOf((await h.call(listFilesTool, { path: "src" })).result)).toEqual({ path: "src", files: ["src/a.ts"], truncated: false });
  });

  test(".git/info/exclude is honoured", async () => {
    const h = await setup({ "a.ts": "a" });
    writeEntries(h.workspace.root, { ".git/info/exclude": "secret.txt\n", "secret.txt": "s" });
    expect(dataOf((await h.call(listFilesTool, {})).result).files).toEqual(["a.ts"]);
  });

  test("matching is case-sensitive, as git's is on Linux", async () => {
    const h = await setup({ ".gitignore": "build\n", "Build/x.ts": "x" });
    expect(dataOf((await h.call(listFilesTool, {})).result).files).toEqual([".gitignore", "Build/x.ts"]);
  });

  test("caps the result at max and says so", async () => {
    const h = await setup({ "1.txt": "", "2.txt": "", "3.txt": "", "4.txt": "" });
    const { result } = await h.call(listFilesTool, { max: 2 });
    expect(result).toEqual({
      ok: true,
      data: {
        path: ".",
        total_files: 4,
        note: "the repository holds 4 files; the first 2 are listed after this summary of its directories. To narrow, call list_files with one of these directories as path (or search_code to find a name).",
        directories: [{ path: ".", files: 4 }],
        files: ["1.txt", "2.txt"],
        truncated: true,
      },
      truncated: true,
    });
  });

  test("a large tree starts with its directories one level down and their file counts, then the first files", async () => {
    const files: Record<string, string> = { "README.md": "" };
    for (let i = 0; i < 700; i++) files[`src/languages/l${i}.js`] = "";
    for (let i = 0; i < 40; i++) files[`test/t${i}.js`] = "";
    files["docs/index.md"] = "";
    const h = await setup(files);
    const data = dataOf((await h.call(listFilesTool, {})).result);
    expect(Object.keys(data)).toEqual(["path", "total_files", "note", "directories", "files", "truncated"]);
    expect(data.total_files).toBe(742);
    expect(data.directories).toEqual([
      { path: ".", files: 1 },
      { path: "docs", files: 1 },
      { path: "src", files: 700 },
      { path: "test", files: 40 },
    ]);
    expect((data.files as string[]).length).toBe(500);
    // Narrowing to the big directory gives the next level.
    const src = dataOf((await h.call(listFilesTool, { path: "src", max: 10 })).result);
    expect([src.total_files, src.directories]).toEqual([700, [{ path: "src/languages", files: 700 }]]);
    expect(String(src.note)).toMatch(/^src holds 700 files; the first 10 are listed/);
  });

  test("exactly max files is not truncated", async () => {
    const h = await setup({ "1.txt": "", "2.txt": "" });
    expect(dataOf((await h.call(listFilesTool, { max: 2 })).result).truncated).toBe(false);
  });

  test("symlinks are listed and named, never followed", async () => {
    const h = await setup({ "a.ts": "a", ext: { symlink: "/usr" } });
    expect(dataOf((await h.call(listFilesTool, {})).result)).toEqual({ path: ".", files: ["a.ts", "ext"], symlinks: ["ext"], truncated: false });
  });

  test("a file path lists just that file", async () => {
    const h = await setup({ "src/a.ts": "a" });
    expect(dataOf((await h.call(listFilesTool, { path: "src/a.ts" })).result)).toEqual({ path: "src/a.ts", files: ["src/a.ts"], truncated: false });
  });

  test("a missing directory is file_not_found", async () => {
    const h = await setup({ "a.ts": "a" });
    expect(codeOf((await h.call(listFilesTool, { path: "nope" })).result)).toBe("file_not_found");
  });

  test("listing outside the workspace is path_denied", async () => {
    const h = await setup({ "a.ts": "a" });
    expect(codeOf((await h.call(listFilesTool, { path: "/etc" })).result)).toBe("path_denied");
  });

  test("request names the directory, or no path for the root", () => {
    expect(listFilesTool.request({}, undefined as never)).toEqual({ kind: "read", tool: "list_files" });
    expect(listFilesTool.request({ path: "src/" }, undefined as never)).toEqual({ kind: "read", tool: "list_files", path: "src" });
  });
});

import { searchCodeTool } from "../../src/tools/search-code.js";
import { harnessFactory } from "./helpers/harness-factory.js";
import { writeEntries } from "../helpers/git-fixture.js";
import { dataOf } from "./helpers/tool-harness.js";

const SRC = {
  "src/a.ts": "const x = foo(1);\nconst y = bar(2);\n",
  "src/b.ts": "foo.bar();\nfoo(3)\n",
  "README.md": "call foo( here\n",
};

describe("search_code", () => {
  const make = harnessFactory();
  const setup = (files: Parameters<typeof make>[0]) => make(files, { mode: "plan" });

  test("literal search returns path:line:text matches", async () => {
    const h = await setup(SRC);
    expect((await h.call(searchCodeTool, { query: "foo(" })).result).toEqual({
      ok: true,
      data: {
        query: "foo(",
        regex: false,
        matches: ["README.md:1:call foo( here", "src/a.ts:1:const x = foo(1);", "src/b.ts:2:foo(3)"],
        files_searched: 3,
        truncated: false,
      },
    });
  });

  test("literal search treats regex metacharacters as text", async () => {
    const h = await setup({ "a.txt": "a.b\naxb\n" });
    expect(dataOf((await h.call(searchCodeTool, { query: "a.b" })).result).matches).toEqual(["a.txt:1:a.b"]);
  });

  test("literal search is case-sensitive", async () => {
    const h = await setup({ "a.txt": "Foo\nfoo\n" });
    expect(dataOf((await h.call(searchCodeTool, { query: "foo" })).result).matches).toEqual(["a.txt:2:foo"]);
  });

  test("regex search when asked", async () => {
    const h = await setup(SRC);
    expect(dataOf((await h.call(searchCodeTool, { query: "^foo\\(\\d\\)$", regex: true })).result).matches).toEqual(["src/b.ts:2:foo(3)"]);
  });

  // The match runs in Patchgate's own event loop: without a bound, one call would hang every session.
  test("a catastrophically backtracking regex ends with search_timeout instead of hanging the process", async () => {
    const h = await setup({ "a.txt": `${"a".repeat(1500)}!\n` });
    const started = Date.now();
    const { result } = await h.call(searchCodeTool, { query: "^(a+)+$", regex: true });
    expect(result.ok ? null : result.error.code).toBe("search_timeout");
    expect(Date.now() - started).toBeLessThan(10_000);
  }, 20_000);

  test("an invalid regex is invalid_arguments, refused before anything is read", async () => {
    const h = await setup(SRC);
    const err = await searchCodeTool.precheck!({ query: "foo(", regex: true }, h.ctx());
    expect(err?.code).toBe("invalid_arguments");
    expect(err?.message).toMatch(/^query is not a valid regular expression: .*Fix it, or search literally with regex=false\.$/);
  });

  test("caps matches at max_results with truncated", async () => {
    const h = await setup({ "a.txt": "hit\nhit\nhit\n" });
    const { result } = await h.call(searchCodeTool, { query: "hit", max_results: 2 });
    expect(result).toEqual({
      ok: true,
      data: { query: "hit", regex: false, matches: ["a.txt:1:hit", "a.txt:2:hit"], files_searched: 1, truncated: true },
      truncated: true,
    });
  });

  test("skips gitignored files", async () => {
    const h = await setup({ ".gitignore": "dist/\n", "src/a.ts": "needle\n" });
    writeEntries(h.workspace.root, { "dist/a.js": "needle\n" });
    expect(dataOf((await h.call(searchCodeTool, { query: "needle" })).result).matches).toEqual(["src/a.ts:1:needle"]);
  });

  test("skips binary files", async () => {
    const h = await setup({ "a.txt": "needle\n", "b.bin": Buffer.concat([Buffer.from("needle\n"), Buffer.from([0])]) });
    const data = dataOf((await h.call(searchCodeTool, { query: "needle" })).result);
    expect([data.matches, data.files_searched]).toEqual([["a.txt:1:needle"], 1]);
  });

  test("never follows symlinks (their targets may be outside)", async () => {
    const h = await setup({ "a.txt": "root:x\n", passwd: { symlink: "/etc/passwd" } });
    expect(dataOf((await h.call(searchCodeTool, { query: "root:" })).result).matches).toEqual(["a.txt:1:root:x"]);
  });

  test("path limits the search to a directory", async () => {
    const h = await setup(SRC);
    expect(dataOf((await h.call(searchCodeTool, { query: "foo", path: "src/b.ts" })).result).matches).toEqual(["src/b.ts:1:foo.bar();", "src/b.ts:2:foo(3)"]);
  });

  test("long lines are shortened in the output", async () => {
    const h = await setup({ "min.js": `needle${"z".repeat(500)}\n` });
    expect(dataOf((await h.call(searchCodeTool, { query: "needle" })).result).matches).toEqual([`min.js:1:needle${"z".repeat(294)}…`]);
  });

  test("a path outside the workspace is path_denied", async () => {
    const h = await setup(SRC);
    const { result } = await h.call(searchCodeTool, { query: "x", path: "../" });
    expect(result.ok ? "ok" : result.error.code).toBe("path_denied");
  });
});

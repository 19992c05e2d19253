import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_REPO_CONFIG } from "../../src/config/repo-config.js";
import type { Sandbox } from "../../src/sandbox/types.js";
import { editFileTool } from "../../src/tools/edit-file.js";
import { listFilesTool } from "../../src/tools/list-files.js";
import { readFileTool } from "../../src/tools/read-file.js";
import { runTestsTool } from "../../src/tools/run-tests.js";
import { searchCodeTool } from "../../src/tools/search-code.js";
import { writeFileTool } from "../../src/tools/write-file.js";
import { devZeroLink, fifo, settlesWithin, socketFile } from "../fakes/special-files.js";
import { harnessFactory } from "./helpers/harness-factory.js";
import { bubblewrap } from "./helpers/sandbox.js";
import { dataOf, type ToolHarness } from "./helpers/tool-harness.js";

/** Each tool must answer well within this; a special file opened the blocking way never answers. */
const BOUND_MS = 10_000;
const REPO = { ".gitignore": "*.log\n", "src/a.ts": "export const needle = 1;\n", "test.sh": "echo ok\n" };

/** The workspace as a stuck test run would leave it: a FIFO .gitignore, a FIFO, a socket and a /dev/zero link. */
async function withSpecials(h: ToolHarness): Promise<() => void> {
  const root = h.workspace.root;
  fifo(root, "build/.gitignore");
  fifo(root, "src/pipe");
  devZeroLink(root, "src/zero");
  const server = await socketFile(root, "src/app.sock");
  return () => server.close();
}

describe("file tools and special files (FIFOs, sockets, devices, symlinks to them)", () => {
  const make = harnessFactory();
  let cleanup = (): void => undefined;
  afterEach(() => cleanup());

  const call = (h: ToolHarness, tool: Parameters<ToolHarness["call"]>[0], input: unknown) =>
    settlesWithin(tool.name, BOUND_MS, h.call(tool, input)).then((r) => r.result);

  test("read_file refuses each, by kind; the /dev/zero link as a path leading outside", async () => {
    const h = await make(REPO, { mode: "plan" });
    cleanup = await withSpecials(h);
    expect(await call(h, readFileTool, { path: "build/.gitignore" })).toMatchObject({
      ok: false,
      error: { code: "special_file", details: { path: "build/.gitignore", kind: "fifo" } },
    });
    expect(await call(h, readFileTool, { path: "src/pipe" })).toMatchObject({ ok: false, error: { code: "special_file", details: { kind: "fifo" } } });
    expect(await call(h, readFileTool, { path: "src/app.sock" })).toMatchObject({ ok: false, error: { code: "special_file", details: { kind: "socket" } } });
    expect(await call(h, readFileTool, { path: "src/zero" })).toMatchObject({ ok: false, error: { code: "path_denied" } });
    const r = await call(h, readFileTool, { path: "src/pipe" });
    expect(r.ok ? "" : r.error.message).toBe(
      "src/pipe is a fifo, not a regular file. The file tools never open special files: reading or writing one can block for ever or never end.",
    );
  });

  test("write_file and edit_file refuse to write into a FIFO or a socket, and write nothing", async () => {
    const h = await make(REPO);
    cleanup = await withSpecials(h);
    expect(await call(h, writeFileTool, { path: "src/pipe", content: "x" })).toMatchObject({ ok: false, error: { code: "special_file" } });
    expect(await call(h, writeFileTool, { path: "src/app.sock", content: "x" })).toMatchObject({ ok: false, error: { code: "special_file" } });
    expect(await call(h, writeFileTool, { path: "build/.gitignore", content: "x" })).toMatchObject({ ok: false, error: { code: "special_file" } });
    expect(await call(h, editFileTool, { path: "src/pipe", edits: [{ search: "a", replace: "b" }] })).toMatchObject({
      ok: false,
      error: { code: "special_file" },
    });
    expect(await call(h, writeFileTool, { path: "src/zero", content: "x" })).toMatchObject({ ok: false, error: { code: "path_denied" } });
    expect(h.events.filter((e) => e.type === "file_written")).toEqual([]);
  });

  test("list_files skips them and says so; listing one is refused", async () => {
    const h = await make(REPO, { mode: "plan" });
    cleanup = await withSpecials(h);
    expect(dataOf(await call(h, listFilesTool, {}))).toEqual({
      path: ".",
      files: [".gitignore", "src/a.ts", "test.sh"],
      skipped_special: ["build/.gitignore (a fifo)", "src/app.sock (a socket)", "src/pipe (a fifo)", "src/zero (a symlink to a character device)"],
      truncated: false,
    });
    expect(dataOf(await call(h, listFilesTool, { path: "build" }))).toMatchObject({ files: [] });
    expect(await call(h, listFilesTool, { path: "src/pipe" })).toMatchObject({ ok: false, error: { code: "special_file" } });
  });

  test("search_code searches around them; searching one is refused", async () => {
    const h = await make(REPO, { mode: "plan" });
    cleanup = await withSpecials(h);
    expect(dataOf(await call(h, searchCodeTool, { query: "needle" }))).toMatchObject({ matches: ["src/a.ts:1:export const needle = 1;"], files_searched: 3 });
    expect(await call(h, searchCodeTool, { query: "x", path: "src/pipe" })).toMatchObject({ ok: false, error: { code: "special_file" } });
  });

  test("an aborted session ends a walk at once", async () => {
    const h = await make(REPO, { mode: "plan" });
    const stop = new AbortController();
    stop.abort(new Error("stopped"));
    await expect(listFilesTool.execute({}, { ...h.ctx(), signal: stop.signal })).rejects.toThrow("stopped");
  });
});

describe("run_tests when the test run leaves special files", () => {
  const make = harnessFactory();
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await bubblewrap();
  });

  test("a FIFO build/.gitignore left by the run is removed, reported, and the run is recorded", async () => {
    const h = await make(
      { ...REPO, "test.sh": "mkdir -p build && mkfifo build/.gitignore && mkfifo src/p && echo ran\n" },
      { sandbox, repoConfig: { ...DEFAULT_REPO_CONFIG, test: "sh test.sh" } },
    );
    const { result, events } = await settlesWithin("run_tests", 30_000, h.call(runTestsTool, {}));
    expect(dataOf(result)).toMatchObject({
      passed: true,
      removed_special_files: { paths: ["build/.gitignore (a fifo)", "src/p (a fifo)"] },
    });
    expect(dataOf(result)).not.toHaveProperty("warning"); // the tree after the run is the tree before it
    expect(events.map((e) => e.type)).toEqual(["test_run"]);
    expect(readFileSync(join(h.workspace.root, "src/a.ts"), "utf8")).toBe(REPO["src/a.ts"]);
    await settlesWithin("treeHash", BOUND_MS, h.workspace.treeHash());
  });
});

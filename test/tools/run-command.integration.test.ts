import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_REPO_CONFIG } from "../../src/config/repo-config.js";
import type { Sandbox } from "../../src/sandbox/types.js";
import { runCommandTool } from "../../src/tools/run-command.js";
import { harnessFactory } from "./helpers/harness-factory.js";
import { bubblewrap } from "./helpers/sandbox.js";
import { dataOf } from "./helpers/tool-harness.js";

describe("run_command", () => {
  const make = harnessFactory();
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await bubblewrap();
  });

  test("without a sandbox: sandbox_unavailable, in precheck and in execute", async () => {
    const h = await make({ "a.txt": "a\n" }, { sandbox: null });
    const expected = {
      code: "sandbox_unavailable",
      message:
        "No sandbox is available on this host, so commands cannot run (they are never run outside a sandbox). " +
        "Continue with the file tools; a maintainer has to enable bubblewrap or docker for commands and tests.",
    };
    expect(await runCommandTool.precheck!({ argv: ["ls"] }, h.ctx())).toEqual(expected);
    expect(await runCommandTool.execute({ argv: ["ls"] }, h.ctx())).toEqual({ result: { ok: false, error: expected } });
  });

  test("an explicit shell runs in the workspace root; a non-zero exit is data", async () => {
    const h = await make({ "a.txt": "hello\n" }, { sandbox });
    const { result, events } = await h.call(runCommandTool, { argv: ["sh", "-c", "cat a.txt; echo oops >&2; exit 3"] });
    const data = dataOf(result);
    expect([data.argv, data.exit_code, data.signal, data.timed_out, data.stdout, data.stderr, data.truncated]).toEqual([
      ["sh", "-c", "cat a.txt; echo oops >&2; exit 3"],
      3,
      null,
      false,
      "hello\n",
      "oops\n",
      false,
    ]);
    expect(typeof data.duration_ms).toBe("number");
    expect(events).toEqual([]);
  });

  test("argv runs without a shell: shell syntax is just words", async () => {
    const h = await make({ "a.txt": "a\n" }, { sandbox });
    const data = dataOf((await h.call(runCommandTool, { argv: ["echo", "$(id)", "|", "a*", ">", "b.txt"] })).result);
    expect([data.exit_code, data.stdout]).toEqual([0, "$(id) | a* > b.txt\n"]);
  });

  test("a command a human approved keeps what it changed, and the ledger makes it publishable", async () => {
    const h = await make({ "a.txt": "a\n", ".gitignore": "out/\n" }, { sandbox });
    const { result, events } = await h.call(runCommandTool, { argv: ["sh", "-c", "echo made > b.txt; mkdir out; echo built > out/cache"] }, { by: "human" });
    expect([dataOf(result).discarded, dataOf(result).changed, events]).toEqual([
      undefined,
      ["b.txt"],
      [{ type: "command_changed", tool: "run_command", paths: ["b.txt"] }],
    ]);
    expect(readFileSync(join(h.workspace.root, "b.txt"), "utf8")).toBe("made\n");
    // Its output where git ignores stays too, unpublished (an install a maintainer approved).
    expect(readFileSync(join(h.workspace.root, "out/cache"), "utf8")).toBe("built\n");
  });

  test("a command the policy allowed has its changes put back, and is told so", async () => {
    const h = await make({ "a.txt": "a\n", ".gitignore": "out/\n" }, { sandbox });
    const script = "echo pwned > PWNED.txt; rm a.txt; mkdir -p out; echo kept > out/cache";
    const { result, events } = await h.call(runCommandTool, { argv: ["sh", "-c", script] }, { by: "policy", readOnly: false });
    const data = dataOf(result);
    expect([data.exit_code, data.discarded]).toEqual([0, ["PWNED.txt", "a.txt"]]);
    expect(data.note).toMatch(/^The command changed PWNED.txt, a.txt; these changes were discarded/);
    expect(events).toEqual([{ type: "changes_rolled_back", tool: "run_command", paths: ["PWNED.txt", "a.txt"] }]);
    expect([existsSync(join(h.workspace.root, "PWNED.txt")), readFileSync(join(h.workspace.root, "a.txt"), "utf8")]).toEqual([false, "a\n"]);
    // What it wrote where git ignores went with it too: nothing it left there reaches a later run.
    expect(existsSync(join(h.workspace.root, "out"))).toBe(false);
  });

  test("a command allowed as a reader runs with the workspace read-only: a wrong verdict cannot write", async () => {
    const h = await make({ "a.txt": "a\n" }, { sandbox });
    const { result, events } = await h.call(runCommandTool, { argv: ["sh", "-c", "cat a.txt; echo x > a.txt; touch new"] }, { by: "policy", readOnly: true });
    const data = dataOf(result);
    expect([data.read_only, data.stdout, data.discarded, events]).toEqual([true, "a\n", undefined, []]);
    expect(data.stderr).toMatch(/Read-only file system/);
    expect([readFileSync(join(h.workspace.root, "a.txt"), "utf8"), existsSync(join(h.workspace.root, "new"))]).toEqual(["a\n", false]);
  });

  test("the repository's command timeout applies", async () => {
    const repoConfig = { ...DEFAULT_REPO_CONFIG, timeouts: { ...DEFAULT_REPO_CONFIG.timeouts, command_seconds: 1 } };
    const h = await make({}, { sandbox, repoConfig });
    const data = dataOf((await h.call(runCommandTool, { argv: ["sleep", "20"] })).result);
    expect([data.timed_out, data.exit_code]).toEqual([true, null]);
  });

  test("long output is cut to head and tail for the model", async () => {
    const h = await make({}, { sandbox });
    const { result } = await h.call(runCommandTool, { argv: ["seq", "1", "20000"] });
    const data = dataOf(result);
    expect(result.ok && result.truncated).toBe(true);
    expect(data.stdout).toMatch(/^1\n2\n3\n[\s\S]*… \[\d+ characters omitted\] …[\s\S]*\n19999\n20000\n$/);
  });

  test("there is no network inside", async () => {
    const h = await make({}, { sandbox });
    // A fresh network namespace has only the loopback interface.
    const data = dataOf((await h.call(runCommandTool, { argv: ["sh", "-c", "tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' '"] })).result);
    expect(data.stdout).toBe("lo\n");
  });

  test("request carries the argv; the preview shows it quoted as a shell would need it", async () => {
    expect(runCommandTool.request({ argv: ["rg", "-n", "a b", "src"] }, undefined as never)).toEqual({
      kind: "command",
      tool: "run_command",
      argv: ["rg", "-n", "a b", "src"],
    });
    expect(await runCommandTool.preview!({ argv: ["rg", "-n", "a b", "src"] }, undefined as never)).toBe("$ rg -n 'a b' src");
  });

  test("the preview of an explicit shell shows its text as written", async () => {
    expect(await runCommandTool.preview!({ argv: ["sh", "-c", "ls | wc -l\necho done"] }, undefined as never)).toBe(
      "$ sh -c '…'   # runs this shell text:\nls | wc -l\necho done",
    );
  });

  test.each([{ argv: [] }, { argv: [""] }, { command: "ls" }])("%j is a schema error", (args) => {
    expect(runCommandTool.input.safeParse(args).success).toBe(false);
  });
});

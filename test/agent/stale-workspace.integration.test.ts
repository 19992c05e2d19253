import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { approvePlan, approveWrites } from "../../src/agent/approvals.js";
import { reopenWorkspace } from "../../src/agent/session-service.js";
import { git } from "../../src/workspace/git.js";
import { ScriptedLLM, type ScriptStep } from "../fakes/scripted-llm.js";
import { BUGGY_ADD_REPO, tempDir } from "../helpers/git-fixture.js";
import { SessionHarness } from "../helpers/session-harness.js";

/**
 * A clone left on a worker's disk is only a cache of the ledger. Under scale-out, worker A holds a
 * session, loses it (killed, or its lease ran out), worker B drives it on (approves, edits), and
 * later A takes the session back: the clone A still has is from before B's edit. Reopening it must
 * bring it to what the ledger recorded, or the tests run on the old tree and `finish` is refused
 * for a file that "changed after it was written".
 */
const cli = { login: "maintainer", via: "cli" as const };
const PLAN: ScriptStep[] = [
  { toolCalls: [{ name: "read_file", arguments: { path: "src/add.js" } }] },
  { toolCalls: [{ name: "submit_plan", arguments: { summary: "make add add", steps: ["edit src/add.js"] } }] },
];
const EDIT: ScriptStep[] = [{ toolCalls: [{ name: "edit_file", arguments: { path: "src/add.js", edits: [{ search: "a - b", replace: "a + b" }] } }] }];

async function parkedAfterEdit(h: SessionHarness): Promise<void> {
  await h.resume(new ScriptedLLM(PLAN));
  await approvePlan(h.ledger, cli, h.ledger.state.planHash!);
  expect(await h.resume(new ScriptedLLM(EDIT))).toEqual({ kind: "parked", phase: "awaiting_write_approval" });
  await approveWrites(h.ledger, cli, h.ledger.state.pending!.digest);
  // The approved write runs; the model is then asked again and this script has nothing more.
  await h.resume(new ScriptedLLM([{ toolCalls: [{ name: "update_todos", arguments: { todos: [] } }] }]));
  expect(h.ledger.state.latestDiff?.patch).toContain("+  return a + b;");
}

describe("reopening a clone that is behind the ledger", () => {
  let h: SessionHarness;
  let elsewhere: string;
  beforeEach(async () => {
    h = await SessionHarness.create(BUGGY_ADD_REPO);
    elsewhere = tempDir("pg-stale-");
  });
  afterEach(async () => {
    await h.dispose();
    rmSync(elsewhere, { recursive: true, force: true });
  });

  test("a clone from before another worker's edit is brought to the recorded patch", async () => {
    const stale = join(elsewhere, "clone");
    cpSync(h.workdir, stale, { recursive: true }); // worker A's disk, as it was when A lost the session
    await parkedAfterEdit(h);
    const ws = await reopenWorkspace(h.ledger, { source: h.source, dir: stale });
    expect(readFileSync(join(stale, "src/add.js"), "utf8")).toContain("a + b");
    expect((await ws.diff(h.ledger.state.publishablePaths)).patch).toBe(h.ledger.state.latestDiff!.patch);
  });

  test("a clone with an edit the ledger never recorded is put back", async () => {
    await parkedAfterEdit(h);
    writeFileSync(join(h.workdir, "src/add.js"), "half-written");
    const ws = await reopenWorkspace(h.ledger, { source: h.source, dir: h.workdir });
    expect((await ws.diff(h.ledger.state.publishablePaths)).patch).toBe(h.ledger.state.latestDiff!.patch);
  });

  /** An approved plan, then an edit_file call that started and reached the disk; the process died before the ledger took its result. */
  async function editCutByCrash(callId: string, edit: { path: string; edits: { search: string; replace: string }[] }): Promise<string> {
    await h.resume(new ScriptedLLM(PLAN));
    await approvePlan(h.ledger, cli, h.ledger.state.planHash!);
    await h.ledger.append(
      { type: "assistant_message", content: null, toolCalls: [{ id: callId, name: "edit_file", arguments: JSON.stringify(edit) }] },
      { type: "tool_started", callId },
    );
    const file = join(h.workdir, "src/add.js");
    writeFileSync(file, readFileSync(file, "utf8").replace("a - b", "a + b"));
    return file;
  }

  test("a file tool's write cut by a crash before the ledger took it, on a path nothing recorded, is put back", async () => {
    const file = await editCutByCrash("cut-1", { path: "./src/add.js", edits: [{ search: "a - b", replace: "a + b" }] });
    expect(h.ledger.state.publishablePaths).toEqual([]);
    const ws = await reopenWorkspace(h.ledger, { source: h.source, dir: h.workdir });
    expect(readFileSync(file, "utf8")).toContain("a - b");
    expect((await ws.diff(["src/add.js"])).patch).toBe("");
  });

  test("a write cut on this worker's disk and answered `interrupted` by another worker is put back when this clone is reopened", async () => {
    // Worker A's disk: the edit landed, then A was killed before the ledger took it.
    const edit = { path: "src/add.js", edits: [{ search: "a - b", replace: "a + b" }] };
    const file = await editCutByCrash("cut-2", edit);
    // Worker B took the session over on its own disk and answered the cut call: nothing names the path now.
    const error = { code: "interrupted", message: "cut" };
    await h.ledger.append({
      type: "tool_result",
      callId: "cut-2",
      tool: "edit_file",
      toolVersion: "1",
      input: edit,
      result: { ok: false, error },
      durationMs: 0,
    });
    expect(h.ledger.state.openCalls).toEqual([]);
    expect(h.ledger.state.publishablePaths).toEqual([]);
    // A takes the session back and reopens the clone it kept.
    const ws = await reopenWorkspace(h.ledger, { source: h.source, dir: h.workdir });
    expect(readFileSync(file, "utf8")).toContain("a - b");
    expect((await ws.diff(["src/add.js"])).patch).toBe("");
  });

  test("a clone left with git's lock files by a git process killed mid-write is cloned again: the next ref update succeeds", async () => {
    await parkedAfterEdit(h);
    // What `git update-ref` and `git add` killed -9 leave behind: their locks, never removed.
    mkdirSync(join(h.workdir, ".git/refs/heads/patchgate"), { recursive: true });
    writeFileSync(join(h.workdir, ".git/refs/heads/patchgate/issue-4.lock"), "");
    writeFileSync(join(h.workdir, ".git/index.lock"), "");
    const ws = await reopenWorkspace(h.ledger, { source: h.source, dir: h.workdir });
    expect((await ws.diff(h.ledger.state.publishablePaths)).patch).toBe(h.ledger.state.latestDiff!.patch);
    expect((await git(["update-ref", "refs/heads/patchgate/issue-4", "HEAD"], { cwd: h.workdir })).exitCode).toBe(0);
    expect((await git(["add", "-A"], { cwd: h.workdir })).exitCode).toBe(0);
  });

  test("a clone without the recorded base commit is replaced by a fresh one", async () => {
    const stale = join(elsewhere, "clone");
    cpSync(h.workdir, stale, { recursive: true });
    await parkedAfterEdit(h);
    // The base moves to a commit the old clone never fetched (a rebase onto the branch's new head).
    writeFileSync(join(h.source, "NEW.md"), "new\n");
    for (const args of [
      ["add", "NEW.md"],
      ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "new"],
    ])
      await git(args, { cwd: h.source });
    const head = (await git(["rev-parse", "HEAD"], { cwd: h.source })).stdout.trim();
    const moved = { ...h.ledger, state: { ...h.ledger.state, baseCommit: head } } as typeof h.ledger;
    const ws = await reopenWorkspace(moved, { source: h.source, dir: stale });
    expect(ws.baseCommit).toBe(head);
    expect(readFileSync(join(stale, "NEW.md"), "utf8")).toBe("new\n");
    expect(readFileSync(join(stale, "src/add.js"), "utf8")).toContain("a + b");
  });
});

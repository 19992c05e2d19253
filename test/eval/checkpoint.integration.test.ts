import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { runCase } from "../../src/eval/runner.js";
import { SqliteSessionStore } from "../../src/store/sqlite-store.js";
import { builtinCase, realSandbox, scriptedModel } from "./run-helpers.js";

/**
 * The checkpoint/resume case, looked at from the outside: the runner really restarted (a new store
 * on the same file, a rebuilt workspace each time) and every approved batch was executed after a
 * restart, by the new process, from the stored approval.
 */
test("each restart reopens the store file and rebuilds the workspace; approved work runs after it", async () => {
  const scratch = mkdtempSync(path.join(os.tmpdir(), "eval-checkpoint-"));
  try {
    const r = await runCase(builtinCase("checkpoint-resume"), { mode: "scripted", llm: scriptedModel, sandbox: await realSandbox(), scratch, keep: true });
    expect([r.status, r.problems]).toEqual(["passed", []]);
    expect(r.notes).toContain("store restarted 3×");
    const dataDir = /--data-dir (.+)$/.exec(r.notes.find((n) => n.startsWith("kept:")) ?? "")?.[1] ?? "";
    for (const n of [0, 1, 2, 3]) expect(existsSync(path.join(dataDir, `workspace-${n}`, "src", "format.js"))).toBe(true);

    const store = SqliteSessionStore.open(path.join(dataDir, "patchgate.sqlite"));
    const events = await store.load(r.sessionId ?? "");
    await store.close();
    const triggers = events.flatMap((e) => (e.type === "resumed" ? [e.trigger] : []));
    expect(triggers).toEqual(["eval", "plan approved (after restart)", "writes approved (after restart)", "writes approved (after restart)"]);
    // Each approved edit's result comes after the resume that followed the restart.
    for (const granted of events.filter((e) => e.type === "approval_granted")) {
      const resumedAt = events.findIndex((e) => e.seq > granted.seq && e.type === "resumed");
      const resultAt = events.findIndex((e) => e.seq > granted.seq && e.type === "tool_result" && e.tool === "edit_file" && e.result.ok);
      expect(resumedAt).toBeGreaterThan(-1);
      expect(resultAt).toBeGreaterThan(resumedAt);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}, 60_000);

import { READ_ONLY_GIT_ENV, readOnlyArgv } from "../../src/policy/shell/read-only-git-run.js";
import { guardedRun } from "../../src/runs/guarded-run.js";
import type { RunContext } from "../../src/runs/run-context.js";
import type { RunStarted } from "../../src/runs/run-progress.js";
import { readyShell, runArgv, runShell } from "../../src/runs/sandbox-run.js";
import type { Sandbox, SandboxResult, SandboxRunRequest } from "../../src/sandbox/types.js";
import { runContextOf } from "../../src/tools/support/run-context.js";
import type { ToolContext } from "../../src/tools/tool.js";
import type { SpecialEntry } from "../../src/workspace/tree-walk.js";

/**
 * A run takes what its RunContext holds and nothing else: the sandbox request is built from the
 * context's limits, hosts and signal; the workspace is snapshotted and put back with the context's
 * publishable paths. A recording sandbox and workspace stand in for the real ones (no process starts).
 */
const PASSED: SandboxResult = { exitCode: 0, signal: null, stdout: "ok\n", stderr: "", truncated: false, timedOut: false, durationMs: 5 };

function world(opts: { special?: SpecialEntry[]; runFails?: boolean } = {}) {
  const requests: SandboxRunRequest[] = [];
  const calls: string[] = [];
  const sandbox: Sandbox = {
    backend: "bubblewrap",
    async run(req) {
      requests.push(req);
      calls.push("run");
      if (opts.runFails) throw new Error("the sandbox broke");
      return PASSED;
    },
  };
  const workspace: RunContext["workspace"] = {
    root: "/ws",
    async treeHash(also) {
      calls.push(`treeHash ${(also ?? []).join(",")}`);
      return "before";
    },
    async changedSince(tree, also) {
      calls.push(`changedSince ${tree} ${(also ?? []).join(",")}`);
      return ["kept.txt"];
    },
    async rollBack(tree, also) {
      calls.push(`rollBack ${tree} ${(also ?? []).join(",")}`);
      return ["put-back.txt"];
    },
    async removeSpecialFiles() {
      calls.push("removeSpecialFiles");
      return opts.special ?? [];
    },
    async ignoredAmong(rels) {
      calls.push(`ignoredAmong ${rels.join(",")}`);
      return new Set();
    },
  };
  const started: string[] = [];
  const signal = new AbortController().signal;
  const ctx: RunContext = {
    sandbox,
    workspace,
    publishable: ["ignored/out.txt"],
    limits: { maxProcesses: 7, cpuSeconds: 9 },
    allowHosts: ["registry.example"],
    signal,
    onRun(run: RunStarted) {
      started.push(`start ${run.kind} ${run.command} ${run.network}`);
      return () => started.push(`end ${run.kind}`);
    },
  };
  return { ctx, requests, calls, started, signal };
}

describe("a sandboxed run from a RunContext", () => {
  test("a networked setup line runs through sh with the context's limits, hosts and signal, marked as setup", async () => {
    const w = world();
    const res = await runShell(w.ctx, { kind: "setup", command: "npm ci", timeoutSeconds: 30, network: true });
    expect(w.requests).toEqual([
      {
        argv: ["/bin/sh", "-c", "npm ci"],
        workspace: "/ws",
        network: true,
        allowHosts: ["registry.example"],
        readOnlyWorkspace: false,
        setup: true,
        timeoutMs: 30_000,
        limits: { maxProcesses: 7, cpuSeconds: 9 },
        signal: w.signal,
        onOutput: undefined,
      },
    ]);
    expect(w.started).toEqual(["start setup npm ci true", "end setup"]);
    expect(res).toEqual({ ...PASSED, removedSpecial: [] });
  });

  test("an offline run is given no hosts, and is not the setup step", async () => {
    const w = world();
    await runShell(w.ctx, { kind: "tests", command: "npm test", timeoutSeconds: 1 });
    expect(w.requests[0]).not.toHaveProperty("allowHosts");
    expect(w.requests[0]).toMatchObject({ network: false, setup: false, readOnlyWorkspace: false });
  });

  test("a reader's argv runs on a read-only workspace with git's programs switched off", async () => {
    const w = world();
    await runArgv(w.ctx, { argv: ["git", "log"], timeoutSeconds: 1, readOnly: true });
    const req = w.requests[0]!;
    expect(req.readOnlyWorkspace).toBe(true);
    expect(req.argv).toEqual(readOnlyArgv(["git", "log"]));
    expect(req.argv).toContain("--no-textconv");
    expect(req.env).toEqual(READ_ONLY_GIT_ENV);
  });

  test("only setup and a command a human approved keep what they write where git ignores; every other run discards it", async () => {
    const w = world();
    await runShell(w.ctx, { kind: "setup", command: "npm ci", timeoutSeconds: 1 });
    await runArgv(w.ctx, { argv: ["npm", "install", "left-pad"], timeoutSeconds: 1, readOnly: false, humanApproved: true });
    await runShell(w.ctx, { kind: "tests", command: "npm test", timeoutSeconds: 1 });
    await runShell(w.ctx, { kind: "baseline", command: "npm test", timeoutSeconds: 1 });
    await runArgv(w.ctx, { argv: ["prettier", "--write", "."], timeoutSeconds: 1, readOnly: false });
    expect(w.requests.map((r) => r.discardIgnored !== undefined)).toEqual([false, false, true, true, true]);
    // The classifier asks the session's workspace.
    expect(await w.requests[2]!.discardIgnored!(["node_modules/x.js"])).toEqual(new Set());
    expect(w.calls.at(-1)).toBe("ignoredAmong node_modules/x.js");
  });

  test("special files the run left are deleted after it and named in the result", async () => {
    const w = world({ special: [{ rel: "pipe", kind: "fifo", viaSymlink: false }] });
    const res = await runArgv(w.ctx, { argv: ["make"], timeoutSeconds: 1, readOnly: false });
    expect(w.calls).toEqual(["run", "removeSpecialFiles"]);
    expect(res.removedSpecial).toEqual(["pipe (a fifo)"]);
  });
});

describe("a guarded run", () => {
  test("without approval, every change is put back, the publishable paths included", async () => {
    const w = world();
    const run = await guardedRun(w.ctx, false, () => runShell(w.ctx, { kind: "tests", command: "t", timeoutSeconds: 1 }));
    expect(w.calls).toEqual(["treeHash ignored/out.txt", "run", "removeSpecialFiles", "rollBack before ignored/out.txt"]);
    expect([run.kept, run.discarded]).toEqual([[], ["put-back.txt"]]);
  });

  test("an approved command keeps its changes", async () => {
    const w = world();
    const run = await guardedRun(w.ctx, true, () => runArgv(w.ctx, { argv: ["make"], timeoutSeconds: 1, readOnly: false }));
    expect([run.kept, run.discarded]).toEqual([["kept.txt"], []]);
    expect(w.calls).not.toContain("rollBack before ignored/out.txt");
  });

  test("a run that throws is put back before the error goes on, and its end is still told", async () => {
    const w = world({ runFails: true });
    await expect(guardedRun(w.ctx, false, () => runShell(w.ctx, { kind: "baseline", command: "t", timeoutSeconds: 1 }))).rejects.toThrow("the sandbox broke");
    expect(w.calls).toEqual(["treeHash ignored/out.txt", "run", "rollBack before ignored/out.txt"]);
    expect(w.started).toEqual(["start baseline t false", "end baseline"]);
  });
});

/** A promise and the function that settles it, for holding a step until the test lets it go. */
function held(): { promise: Promise<void>; release: () => void } {
  let release = (): void => undefined;
  const promise = new Promise<void>((r) => (release = r));
  return { promise, release };
}

/** Lets every promise that can settle now settle (no timer is waited for). */
const settle = () => new Promise((r) => setImmediate(r));

describe("a guarded run whose sandbox is readied beside the snapshot", () => {
  test("readying starts while the tree is hashed, and the run starts only after both", async () => {
    const w = world();
    const snapshot = held();
    const readying = held();
    const prepared: SandboxRunRequest[] = [];
    w.ctx.sandbox.prepare = async (req) => {
      prepared.push(req);
      w.calls.push("prepare");
      await readying.promise;
    };
    const hash = w.ctx.workspace.treeHash;
    w.ctx.workspace.treeHash = async (also) => {
      const tree = await hash(also);
      await snapshot.promise;
      return tree;
    };
    const shell = { kind: "tests" as const, command: "t", timeoutSeconds: 1 };
    const run = guardedRun(w.ctx, false, () => runShell(w.ctx, shell), readyShell(w.ctx, shell));
    await settle();
    expect(w.calls).toEqual(["prepare", "treeHash ignored/out.txt"]);
    snapshot.release();
    await settle();
    expect(w.calls).not.toContain("run");
    readying.release();
    await run;
    expect(w.calls).toEqual(["prepare", "treeHash ignored/out.txt", "run", "removeSpecialFiles", "rollBack before ignored/out.txt"]);
    // Readied for exactly the run that follows, so that it finds its sandbox started.
    expect(prepared).toEqual(w.requests);
  });

  test("a sandbox that fails to get ready leaves the run to meet it and report it", async () => {
    const w = world();
    w.ctx.sandbox.prepare = () => Promise.reject(new Error("no sandbox today"));
    const shell = { kind: "tests" as const, command: "t", timeoutSeconds: 1 };
    const run = await guardedRun(w.ctx, false, () => runShell(w.ctx, shell), readyShell(w.ctx, shell));
    expect(run.res.exitCode).toBe(0);
    expect(w.calls).toEqual(["treeHash ignored/out.txt", "run", "removeSpecialFiles", "rollBack before ignored/out.txt"]);
  });
});

test("a tool call without a sandbox has no run context: a bug, said as one", () => {
  const ctx = { sandbox: null } as unknown as ToolContext;
  expect(() => runContextOf(ctx)).toThrow("a sandboxed run without a sandbox");
});
